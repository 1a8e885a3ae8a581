import ExperimentClient
import ExperimentCore
import Foundation

/// Scenario 7: the Swift client library on the sample snapshot: loading it, and `value(for:)` warm.
///
/// The snapshot is `export --format client` of sample-data/experiments.json, made in memory. A load
/// is `replaceSnapshot(with:)` on a fresh client: decode, validate, compile, swap. The lookups ask
/// eight typed keys (enums, a flag, payloads) round-robin on one warm client.
enum ClientScenario {
    static func run(_ options: Options) {
        Report.section("7. Client library: sample snapshot load, value(for:) on a warm client")
        let storeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-data/experiments.json")
        guard let storeData = try? Data(contentsOf: storeURL), let store = try? StoreSnapshot.decode(storeData, path: storeURL.path),
              let clientData = try? ClientSnapshotDocument(store).encoded() else {
            Report.check(false, "sample store readable at \(storeURL.path)")
            return
        }
        let loads = max(20, options.scaled(2000))
        for (label, data, target) in [("client snapshot", clientData, Target.atMost(1)), ("store file", storeData, nil)] {
            var times: [Double] = []
            for _ in 0..<options.runs {
                times.append(Timing.of {
                    for _ in 0..<loads { blackHole(ExperimentClient().replaceSnapshot(with: data)) }
                }.cpu)
            }
            Report.figure("load the sample \(label) (\(data.count) bytes)", median(times) / Double(loads) * 1000, "ms",
                          target: target, detail: "replaceSnapshot(with:) on a fresh client, \(loads) loads")
        }
        let client = ExperimentClient(subject: Subject(userID: "user-42", deviceID: "device-7f3a"))
        client.replaceSnapshot(with: clientData)
        let calls = options.scaled(8_000_000)
        var sink = 0
        var times: [Double] = []
        for _ in 0..<options.runs {
            times.append(Timing.of {
                for _ in 0..<calls / 8 {
                    sink &+= client.value(for: BenchKeys.AccountAddFunds.self) == .control ? 1 : 0
                    sink &+= client.value(for: BenchKeys.ColorScheme.self).accent.utf8.count
                    sink &+= client.value(for: BenchKeys.Banner.self) ? 1 : 0
                    sink &+= client.value(for: BenchKeys.Ebook.self) == .newsletter ? 1 : 0
                    sink &+= client.value(for: BenchKeys.Discount.self) == .control ? 1 : 0
                    sink &+= client.value(for: BenchKeys.Onboarding.self) == .classic ? 1 : 0
                    sink &+= client.value(for: BenchKeys.Paywall.self) == .a ? 1 : 0
                    sink &+= client.value(for: BenchKeys.ButtonColor.self).color.utf8.count
                }
            }.cpu)
        }
        blackHole(sink)
        Report.figure("value(for:) on a warm client, 8 typed keys", median(times) / Double(calls / 8 * 8) * 1e9, "ns",
                      target: .atMost(100), detail: "\(calls) calls, one thread, lock + cached answer")
        let expected = ["control", "high_contrast", "control", "control", "discount_20", "classic", "a", "green"]
        let answers = [client.evaluation(for: BenchKeys.AccountAddFunds.self).variant, client.evaluation(for: BenchKeys.ColorScheme.self).variant,
                       client.evaluation(for: BenchKeys.Banner.self).variant, client.evaluation(for: BenchKeys.Ebook.self).variant,
                       client.evaluation(for: BenchKeys.Discount.self).variant, client.evaluation(for: BenchKeys.Onboarding.self).variant,
                       client.evaluation(for: BenchKeys.Paywall.self).variant, client.evaluation(for: BenchKeys.ButtonColor.self).variant]
        Report.check(answers == expected, "user-42 / device-7f3a get the variants `abconsole inspect` gives them")
    }
}

/// Typed keys for the sample store.
enum BenchKeys {
    enum AccountAddFunds: String, ExperimentEnum { case control, accountView = "account_view"; static let key = "account_add_funds", defaultValue = AccountAddFunds.control }
    struct Scheme: Decodable, Sendable { let accent: String }
    enum ColorScheme: ExperimentPayload { static let key = "app_color_scheme", defaultValue = Scheme(accent: "#0a84ff") }
    enum Banner: ExperimentFlag { static let key = "cash_projection_banner", onVariants: Set<String> = ["banner"] }
    enum Ebook: String, ExperimentEnum { case control, socialShare = "social_share", newsletter; static let key = "ebook_promotion", defaultValue = Ebook.control }
    enum Discount: String, ExperimentEnum { case control, discount10 = "discount_10", discount20 = "discount_20"; static let key = "iap_discount", defaultValue = Discount.control }
    enum Onboarding: String, ExperimentEnum { case classic, videoTour = "video_tour"; static let key = "onboarding_flow", defaultValue = Onboarding.classic }
    enum Paywall: String, ExperimentEnum { case a, b, c; static let key = "paywall_type", defaultValue = Paywall.a }
    struct Color: Decodable, Sendable { let color: String }
    enum ButtonColor: ExperimentPayload { static let key = "purchase_button_color", defaultValue = Color(color: "#0a84ff") }
}
