import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// `client-example --server` against a real HTTP server speaking OFREP's bulk endpoint and
/// `/v1/exposures`: Tests/delivery/ofrep_stub.py, and the real `abconsole serve`.
@Suite(.serialized) struct ServerExampleTests {
    /// The sample store's keys as a server answers user-42 on device-7f3a; `paywall_type`, a draft, is not served.
    static let bulk = #"""
        {"flags":[{"key":"account_add_funds","value":"control","variant":"control","reason":"SPLIT"},
        {"key":"app_color_scheme","value":{"accent":"#ff9f0a","background":"#000000"},"variant":"dark","reason":"SPLIT"},
        {"key":"cash_projection_banner","value":"banner","variant":"banner","reason":"SPLIT"},
        {"key":"ebook_promotion","value":"newsletter","variant":"newsletter","reason":"SPLIT"},
        {"key":"iap_discount","value":"discount_10","variant":"discount_10","reason":"SPLIT"},
        {"key":"onboarding_flow","value":"classic","variant":"classic","reason":"SPLIT"},
        {"key":"purchase_button_color","value":{"color":"#34c759"},"variant":"green","reason":"SPLIT"}]}
        """#

    @Test func printsTheServersAnswersAndPostsExposures() throws {
        let server = try SnapshotServer(script: "ofrep_stub.py")
        defer { server.stop() }
        try server.publish(Data(Self.bulk.utf8), at: "bulk.json")
        let base = "http://127.0.0.1:\(server.port)"
        let run = try Binaries.run("client-example", ["--server", base, "--token", "t", "--user", "user-42", "--device", "device-7f3a",
                                                      "--post-exposures", "--show", "purchase_button_color", "--show", "paywall_type"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            "account_add_funds control", "app_color_scheme dark", "cash_projection_banner banner", "ebook_promotion newsletter",
            "iap_discount discount_10", "onboarding_flow classic", "paywall_type default", "purchase_button_color green",
        ])
        #expect(run.stderr.contains("paywall_type"), "the draft's default is reported: \(run.stderr)")
        let rows = HTTPExposureSinkTests.received(server)
        #expect(rows.count == 1)
        #expect(rows.first?.contains(#""experiment":"purchase_button_color","subject":"user-42","#) == true, "\(rows)")
        let request = try #require(try RemoteModeTests.requests(server).first { $0.path == "/ofrep/v1/evaluate/flags" })
        #expect(try JSONDecoder().decode([String: EvaluationContext].self, from: Data(request.body.utf8))
                == ["context": EvaluationContext(userId: "user-42", deviceId: "device-7f3a")])
        #expect(request.authorization == "Bearer t")
    }

    /// The exposure rows the real server wrote, as `experiment subject`, in order.
    static func written(_ server: SnapshotServer) throws -> [String] {
        let logs = server.root.appendingPathComponent("logs")
        return try FileManager.default.contentsOfDirectory(atPath: logs.path).filter { $0.hasPrefix("exposures-") }.sorted().flatMap { name in
            try String(contentsOf: logs.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").map { line in
                let row = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
                return "\(row["experiment"] ?? "?") \(row["subject"] ?? "?")"
            }
        }
    }

    /// Against the real `abconsole serve`: the answers, exposures naming the id each experiment
    /// buckets by (the device for `app_color_scheme`), a paused experiment's exposure refused, and
    /// the library's own `refresh(fromServer:)`.
    @Test func againstAbconsoleServeExposuresNameTheBucketingIdAndPausedOnesAreRefused() async throws {
        let server = try SnapshotServer.abconsoleServe(store: Fixture.sampleStoreURL)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let ids = ["--user", "user-42", "--device", "device-7f3a"]
        let run = try Binaries.run("client-example", ["--server", base] + ids
                                   + ["--post-exposures", "--show", "purchase_button_color", "--show", "app_color_scheme"])
        #expect(run.code == 0, "\(run.stderr)")
        // The server decides as the library does from the store, except that a draft is not served.
        let local = try Binaries.run("client-example", ["--snapshot", Fixture.sampleStoreURL.path] + ids)
        let expected = local.stdout.split(separator: "\n").map { $0.hasPrefix("paywall_type ") ? "paywall_type default" : String($0) }
        #expect(expected.count == 8)
        #expect(run.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(try Self.written(server) == ["app_color_scheme device-7f3a", "purchase_button_color user-42"])
        let paused = try Binaries.run("client-example", ["--server", base] + ids + ["--post-exposures", "--show", "onboarding_flow"])
        #expect(paused.code == 74, "the refused row is reported: \(paused.stderr)")
        #expect(try Self.written(server).count == 2)
        let client = ExperimentClient(subject: Subject(userID: "user-42", deviceID: "device-7f3a"))
        let outcome = try await client.refresh(fromServer: try #require(URL(string: base)), context: EvaluationContext(userId: "user-42", deviceId: "device-7f3a"))
        #expect(outcome == .replaced(changed: ["account_add_funds", "app_color_scheme", "cash_projection_banner", "ebook_promotion",
                                               "iap_discount", "onboarding_flow", "purchase_button_color"]))
        #expect(client.experimentKeys.map { "\($0) \(client.evaluation(forKey: $0).variant ?? "-")" } == expected.filter { !$0.hasPrefix("paywall_type") })
        #expect(client.evaluation(forKey: "paywall_type").source == .fallback(.keyNotFound))
    }

    @Test func anUnreachableServerPrintsDefaultsAndUnsentExposuresFail() throws {
        let run = try Binaries.run("client-example", ["--server", "http://127.0.0.1:1", "--user", "u", "--timeout", "2", "--post-exposures"])
        #expect(run.code == 0, "no exposure was due: every key served its default")
        #expect(run.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(" default") })
        #expect(run.stderr.contains("cannot be reached"), "\(run.stderr)")
        let usage = try Binaries.run("client-example", ["--server", "http://x", "--snapshot", "s.json"])
        #expect(usage.code == 64)
        #expect(try Binaries.run("client-example", ["--snapshot", "s.json", "--post-exposures"]).code == 64)
    }
}
