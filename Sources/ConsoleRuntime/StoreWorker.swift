import ConsoleUI
import ExperimentCore
import ExperimentStore
import Foundation

/// Performs store work as a job: waits for another writer's lock in short slices, so it can say how
/// long it has waited and stop when asked before it takes the lock.
///
/// Once a slice gets the lock the transaction runs to its end: a save is never cut off half-way,
/// so giving up only stops a save that has not started.
struct StoreWorker: Sendable {
    let store: StoreFile
    let context: ChangeContext
    /// How long one attempt waits for the lock before checking for `Esc` and reporting progress.
    static let slice = 0.1

    /// Applies `change` (refused if the experiment moved past `expectedRevision`); returns the
    /// outcome and the fingerprint of the store file it shows.
    func apply(_ change: Change, expectedRevision: Int?, _ control: JobControl) -> (JobOutcome, StoreFingerprint?) {
        save(control) { store in try store.applyAndRead(change, expectedRevision: expectedRevision, context: context, committing: true) }
    }

    /// Reads the CSV file at `path` and imports it into `experiment`'s whitelist in one transaction.
    func importWhitelist(_ experiment: String, path: String, expectedRevision: Int, _ control: JobControl) -> (JobOutcome, StoreFingerprint?) {
        do {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConsoleError(message: "cannot read \(path): it does not exist or is not readable")
            }
            let rows = try WhitelistCSV.parse(data)
            return save(control) { store in
                try store.applyAndRead(.whitelistImport(experiment: experiment, rows: rows), expectedRevision: expectedRevision, context: context,
                                       committing: true)
            }
        } catch {
            return failure(error)
        }
    }

    /// Writes the store merged from git's index stages, THEIRS's value for the conflicts in `theirs`
    /// (validated like any save), then stages it so `git commit` concludes the merge.
    func resolveConflicts(takingTheirs theirs: Set<String>, _ control: JobControl) -> (JobOutcome, StoreFingerprint?) {
        let path = GitPoller.absolute(store.path)
        do {
            let merged = try GitPoller.stagedMerge(path, takingTheirs: theirs, by: context)
            try store.update { $0 = merged.snapshot }
            // The fingerprint before the read: a writer landing in between makes the console read again.
            let fingerprint = store.fingerprint()
            let fresh = try store.load()
            try GitCommands(directory: (path as NSString).deletingLastPathComponent).add(path)
            let count = merged.conflicts.count
            return (.saved(message: "settled \(count) conflict\(count == 1 ? "" : "s") (\(theirs.count) with THEIRS) and staged the store; `git commit` concludes the merge",
                           snapshot: fresh), fingerprint)
        } catch let error as GitCommands.GitError {
            return failure(ConsoleError(message: error.message))
        } catch {
            return failure(error)
        }
    }

    /// Runs `transaction`, retrying while the lock is held until the store's lock timeout; a save
    /// answers with the store it wrote and that file's fingerprint, both read under its lock.
    private func save(_ control: JobControl, _ transaction: (StoreFile) throws -> SavedStore) -> (JobOutcome, StoreFingerprint?) {
        var attempt = store
        attempt.lockTimeout = min(Self.slice, store.lockTimeout)
        let started = ContinuousClock.now
        var reported: Int?
        while true {
            if control.isCancelled { return (.cancelled, nil) }  // nothing written: the console keeps watching the store it shows
            do {
                let saved = try transaction(attempt)
                var message = saved.outcome.message
                // `git-setup --commit-changes`: the transaction committed the store alone, or says why not (the change stays saved).
                if let why = saved.notCommitted { message += "; saved but not committed: \(why)" }
                return (.saved(message: message, snapshot: saved.snapshot), saved.fingerprint)
            } catch let error as StoreError {
                guard case .lockTimeout = error else { return failure(error) }
                let elapsed = ContinuousClock.now - started
                guard elapsed < .seconds(store.lockTimeout) else {
                    return failure(StoreError.lockTimeout(path: store.path, seconds: store.lockTimeout))
                }
                let waited = Int(elapsed.components.seconds)
                if reported != waited {
                    reported = waited
                    control.report(.waitingForLock(seconds: waited, limit: Int(store.lockTimeout.rounded(.up))))
                }
            } catch {
                return failure(error)
            }
        }
    }

    /// A failure with the fresh store, when it can be read, and a fingerprint taken before that read: if
    /// another writer lands in between, the console sees a change and reads the store again.
    private func failure(_ error: any Error) -> (JobOutcome, StoreFingerprint?) {
        let fingerprint = store.fingerprint()
        return (.failed(message: Self.describe(error), snapshot: try? store.load()), fingerprint)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let error as ExperimentError: error.message
        case let error as StoreError: error.message
        case let error as ConsoleError: error.message
        default: "unexpected failure: \(error)"
        }
    }
}
