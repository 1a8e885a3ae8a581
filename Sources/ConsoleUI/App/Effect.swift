import ExperimentCore
import ExperimentEditing
import ExperimentResults

/// Work the update asks the runtime to do; I/O as values, performed outside the pure update.
package enum Effect: Equatable, Sendable {
    /// Perform `work` off the render loop as job `id` (see `Job`); its progress and outcome come back as actions.
    case start(JobID, Work)
    /// Ask job `id` to stop; it answers with its outcome (`.cancelled` when it stopped in time).
    case cancel(JobID)
    /// Close the console with this exit code.
    case quit(Int32)

    /// The work a `.start` effect runs (tests compare it without the job's id).
    package var work: Work? {
        if case .start(_, let work) = self { work } else { nil }
    }
}

/// What happens to the console: a key, a new terminal size, or the result of an effect.
package enum Action: Equatable, Sendable {
    case key(Key)
    /// The terminal is now `width` × `height` cells (sent once at start and on every resize).
    case resized(width: Int, height: Int)
    /// Job `id` got this far.
    case jobProgress(JobID, JobProgress)
    /// Job `id` ended.
    case jobFinished(JobID, JobOutcome)
    /// The store changed on disk and was read again.
    case storeReloaded(StoreSnapshot)
    /// The store could not be read again; the console keeps showing the last good state and says why in the title bar.
    case storeUnreadable(message: String, trouble: StoreTrouble)
    /// The runtime read where the store stands in git, the conflicts of an unfinished merge of it,
    /// and why a conflicted store has none to pick (with the way out).
    case gitRead(GitStatus?, conflicts: [MergeConflict], trouble: String?)
}

/// A yes/no question restating an irreversible or important change before it is applied.
package struct Confirmation: Equatable, Sendable {
    package var title: String
    package var lines: [String]
    package var change: Change
    package var expectedRevision: Int?
    /// The form that asked (e.g. the ramp editor, with what was typed); `n`/`Esc` returns to it.
    package var returnTo: Overlay?
    /// What another writer changed since the question was asked; `y` then asks again instead of applying.
    package var stale: StaleNote?
    /// Why the last `y` was refused, shown whole in the dialog.
    package var refusal: String?

    package init(title: String, lines: [String], change: Change, expectedRevision: Int?, returnTo: Overlay? = nil) {
        self.title = title
        self.lines = lines
        self.change = change
        self.expectedRevision = expectedRevision
        self.returnTo = returnTo
    }
}
