import ExperimentCore
import ExperimentEditing
import ExperimentResults

/// Names one job (an effect performed off the render loop) from its start to its result.
package struct JobID: Hashable, Sendable, CustomStringConvertible {
    package let value: Int

    package init(_ value: Int) { self.value = value }

    package var description: String { "job \(value)" }
}

/// An effect running off the render loop, as the state tracks it until its outcome arrives.
///
/// The update starts one with `AppState.startJob`, which returns `Effect.start(id, work)`; the
/// runtime performs the work on a background queue and feeds back `.jobProgress(id, …)` while it
/// runs and exactly one `.jobFinished(id, outcome)`. `Esc` asks it to stop (`Effect.cancel(id)`);
/// the job stays listed, marked as giving up, until its outcome arrives.
package struct Job: Equatable, Sendable {
    package let id: JobID
    package let work: Work
    /// What it does, for the status bar: "saving the change to `checkout`".
    package var title: String
    package var progress: JobProgress = .running
    /// `Esc` was pressed: the runtime was asked to stop; the outcome says whether it did.
    package var isGivingUp = false
    /// The form or confirmation that asked, opened again if the job fails or is given up, so nothing typed is lost.
    package var returnTo: Overlay?
}

/// What the runtime does off the render loop; each case has an outcome in `JobOutcome`.
package enum Work: Equatable, Sendable {
    /// Apply a change in one store transaction, refused if the experiment moved past `expectedRevision`.
    case apply(Change, expectedRevision: Int?)
    /// Read a CSV file and import it into `experiment`'s whitelist in one transaction.
    case importWhitelist(experiment: String, path: String, expectedRevision: Int)
    /// Read `experiment`'s event logs into the totals its results screen shows.
    case readResults(experiment: String)
    /// Settle the conflicts shown on the conflicts screen (THEIRS's value for these ids, OURS's for
    /// the others, each recorded in the history) in the store as the file holds it, and stage it.
    case resolveConflicts(shown: [MergeConflict], takingTheirs: Set<String>)

    /// Whether it writes the store: one such job at a time, and never with `--read-only`.
    package var writesStore: Bool {
        switch self {
        case .apply, .importWhitelist, .resolveConflicts: true
        case .readResults: false
        }
    }

    /// The status bar's name for it.
    var title: String {
        switch self {
        case .apply(let change, _): "saving the change to `\(change.experimentKey)`"
        case .importWhitelist(let experiment, _, _): "importing the whitelist of `\(experiment)`"
        case .readResults(let experiment): "reading the event logs of `\(experiment)`"
        case .resolveConflicts: "writing and staging the settled merge"
        }
    }
}

/// How far a job has got, reported by the runtime while it runs.
package enum JobProgress: Equatable, Sendable {
    /// Working, with nothing more specific to say.
    case running
    /// Another writer holds the store's lock; waited this many whole seconds so far (of `limit`).
    case waitingForLock(seconds: Int, limit: Int)
    /// `done` of `total` units (bytes, files, events) of a job whose size is known.
    case counted(done: Int, total: Int)
    /// `rows` rows read in `elapsed` seconds of a job whose size is not known ahead (event logs).
    case read(rows: Int, elapsed: Double)
}

/// How a job ended, fed back to the update as `.jobFinished(id, outcome)`.
package enum JobOutcome: Equatable, Sendable {
    /// A change was saved; `snapshot` is the store after it.
    case saved(message: String, snapshot: StoreSnapshot)
    /// A change was refused or failed; `snapshot` is the fresh store when it could be read.
    case failed(message: String, snapshot: StoreSnapshot?)
    /// The job stopped when asked, before it changed anything.
    case cancelled
    /// The event logs were read into these totals.
    case resultsRead(Analysis)
    /// The event logs could not be read (a missing log, a malformed row).
    case resultsFailed(message: String)
}
