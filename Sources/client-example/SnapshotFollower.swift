import ExperimentClient
import Foundation

/// `--snapshot-url`: fetches through `refresh(from:)`, prints `KEY VARIANT` for every typed key at
/// the start and after each change, and says what each later fetch found (`304`, same bytes, failed).
/// `@unchecked`: the key types are immutable metatypes.
struct SnapshotFollower: @unchecked Sendable {
    let client: ExperimentClient
    let url: URL
    let every: Double?
    let runFor: Double?
    /// Each fetch's deadline (seconds) and largest body (bytes).
    var timeout: Double = 30
    var maxBytes = ExperimentClient.defaultMaxSnapshotBytes
    let keys: [any ExperimentKey.Type]
    let show: [String]

    init(client: ExperimentClient, url: URL, every: Double?, for runFor: Double?, keys: [any ExperimentKey.Type], show: [String]) {
        self.client = client
        self.url = url
        self.every = every
        self.runFor = runFor
        self.keys = keys
        self.show = show
    }

    func run() async {
        _ = try? await client.refresh(from: url, timeout: timeout, maxBytes: maxBytes)
        printVariants()
        for key in keys where show.contains(key.key) { client.markSeen(key) }
        guard let runFor else { return }
        let interval = every ?? 1
        let end = Date().addingTimeInterval(runFor)
        while Date().addingTimeInterval(interval) <= end {
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            do {
                switch try await client.refresh(from: url, timeout: timeout, maxBytes: maxBytes) {
                case .notModified: say("not modified (304)")
                case .unchanged: say("unchanged (same bytes)")
                case .replaced(let changed):
                    say("changed: \(changed.isEmpty ? "-" : changed.sorted().joined(separator: " "))")
                    printVariants()
                }
            } catch {
                say("fetch failed; keeping the current snapshot")
            }
        }
    }

    /// `KEY VARIANT` for every typed key, `default` when the app fell back to its default.
    private func printVariants() {
        for key in keys { say("\(key.key) \(variant(of: key))") }
    }

    private func variant<Key: ExperimentKey>(of key: Key.Type) -> String { client.evaluation(for: key).variant ?? "default" }

    /// One line on stdout at once (a test or a log follows it live).
    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
