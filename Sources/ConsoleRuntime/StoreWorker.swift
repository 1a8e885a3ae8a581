import ConsoleUI
import ExperimentCore
import ExperimentEditing
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
        save(control) { service in try service.apply(change, expectedRevision: expectedRevision, context: context, readingBack: true) }
    }

    /// Imports the CSV file at `path` into `experiment`'s whitelist in one transaction: the store
    /// service's import, as the CLI's (a device or a directory refused unread, every bad line named).
    func importWhitelist(_ experiment: String, path: String, expectedRevision: Int, _ control: JobControl) -> (JobOutcome, StoreFingerprint?) {
        let file: ImportFile
        do {
            file = try StoreService(store).readImport(.file(path))
        } catch {
            return failure(error)
        }
        return save(control) { service in
            try service.importWhitelist(experiment, file, expectedRevision: expectedRevision, context: context, readingBack: true)
        }
    }

    /// Settles the conflicts `shown` on the conflicts screen against the store as the file holds it
    /// (under its lock): THEIRS's value for those in `theirs`, each choice recorded in the history;
    /// validated like any save, then staged so `git commit` concludes the merge.
    func resolveConflicts(shown: [MergeConflict], takingTheirs theirs: Set<String>, _ control: JobControl) -> (JobOutcome, StoreFingerprint?) {
        let path = store.gitPath
        do {
            let merge = try GitConflicts(storePath: path, fastPaths: store.fastPaths).merge()
            var refusal: SettlementRefusal?
            try store.update { snapshot in
                do throws(SettlementRefusal) {
                    snapshot = try merge.settle(shown, takingTheirs: theirs, current: snapshot, context: context)
                } catch {
                    refusal = error  // nothing changed: the file is not written
                }
            }
            if let refusal { return failure(ConsoleError(message: refusal.message)) }
            // The fingerprint before the read: a writer landing in between makes the console read again.
            let fingerprint = store.fingerprint()
            let fresh = try store.load()
            try GitCommands(directory: (path as NSString).deletingLastPathComponent).add(path)
            let count = shown.count
            return (.saved(message: "settled \(count) conflict\(count == 1 ? "" : "s") (\(theirs.count) with THEIRS, each recorded in the history) "
                           + "and staged the store; `git commit` concludes the merge (`git rebase --continue` a rebase)", snapshot: fresh), fingerprint)
        } catch let error as StoreError {
            return failure(error)
        } catch {
            return failure(ConsoleError(message: GitConflicts.message(error)))
        }
    }

    /// Runs `transaction`, retrying while the lock is held until the store's lock timeout; a save
    /// answers with the store it wrote and that file's fingerprint, both read under its lock.
    private func save(_ control: JobControl, _ transaction: (StoreService) throws -> SavedChange) -> (JobOutcome, StoreFingerprint?) {
        var attempt = store
        attempt.lockTimeout = min(Self.slice, store.lockTimeout)
        let started = ContinuousClock.now
        var reported: Int?
        while true {
            if control.isCancelled { return (.cancelled, nil) }  // nothing written: the console keeps watching the store it shows
            do {
                let saved = try transaction(StoreService(attempt))
                guard let snapshot = saved.snapshot else { return failure(StoreError.missing(path: store.path)) }
                // `git-setup --commit-changes`: the transaction committed the store alone, or says why not (the change stays saved).
                let message = saved.outcome.message + (saved.notCommittedNote.map { "; " + $0 } ?? "")
                return (.saved(message: message, snapshot: snapshot), saved.fingerprint)
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
        case let error as InputFileError: error.message
        default: "unexpected failure: \(error)"
        }
    }
}
