import ExperimentCore
import ExperimentStore
import Foundation

/// The store `serve` answers from, swapped whole when the file changes (SPEC §13 "Live store").
///
/// `refresh()` compares the file's fingerprint (device, inode, size, modification time) with the
/// one last loaded, and only on a change reads, validates and compiles the new store, all off the
/// request path; requests then see either the old `ServedStore` or the new one, never a half.
/// An invalid or vanished store keeps the last good one and says why once per problem.
package final class LiveStore: Sendable {
    private struct State: Sendable {
        var served: ServedStore?
        /// The fingerprint of the file last looked at (loaded or refused); nil before the first look.
        var seen: StoreFingerprint?
        var looked = false
        /// The problem last reported, so each is said once.
        var problem: String?
    }

    private let file: StoreFile
    private let report: @Sendable (String) -> Void
    private let state = LockedValue(State())

    /// A live store over `path`; `report` receives one line for each store loaded and each new problem.
    package convenience init(path: String, report: @escaping @Sendable (String) -> Void) {
        self.init(file: StoreFile(path: path), report: report)
    }

    /// A live store over `file`, read with the fast paths it carries.
    package init(file: StoreFile, report: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.report = report
    }

    /// The good store being served, or nil while none has loaded.
    package var served: ServedStore? { state.withLock { $0.served } }

    /// Loads the store when its file changed since the last look; called by the poller (and tests).
    package func refresh() {
        let fingerprint = file.fingerprint()
        let (unchanged, hadStore) = state.withLock { ($0.looked && $0.seen == fingerprint, $0.served != nil) }
        guard !unchanged else { return }
        guard fingerprint != nil else {
            say(problem: (hadStore ? "still serving the last good store: " : "waiting for a store: ") + "the store \(file.path) is missing",
                fingerprint: nil)
            return
        }
        do {
            // Read as deciding needs it: the file's bytes are released once read, and no
            // `WhitelistEntry` is made, so the old store, the bytes and the new one's whitelists
            // are all that coexist (docs/serving.md, "Memory").
            let served = ServedStore(try file.loadForDeciding())
            state.withLock {
                $0.served = served
                $0.seen = fingerprint
                $0.looked = true
                $0.problem = nil
            }
            report("serving store revision \(served.revision) (\(served.experiments.count) experiment\(served.experiments.count == 1 ? "" : "s") served)")
        } catch {
            // The first lines of a long list of problems say enough; `abconsole validate` shows them all.
            let lines = error.message(refusingChange: false).split(separator: "\n", omittingEmptySubsequences: false)
            let shown = lines.prefix(6).joined(separator: "\n") + (lines.count > 6 ? "\n  … (`abconsole validate` lists them all)" : "")
            say(problem: (hadStore ? "still serving the last good store: " : "waiting for a valid store: ") + shown, fingerprint: fingerprint)
        }
    }

    /// Records `problem` for the file seen as `fingerprint`, reporting it unless it was the last one reported.
    private func say(problem: String, fingerprint: StoreFingerprint?) {
        let isNew = state.withLock { state -> Bool in
            state.seen = fingerprint
            state.looked = true
            defer { state.problem = problem }
            return state.problem != problem
        }
        if isNew { report(problem) }
    }

    /// Refreshes every `interval` seconds on a background thread for the life of the process.
    package func startPolling(every interval: TimeInterval = 0.25) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                refresh()
            }
        }
        thread.name = "store-poller"
        thread.start()
    }
}
