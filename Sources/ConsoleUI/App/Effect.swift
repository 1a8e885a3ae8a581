import ExperimentCore
import ExperimentResults
import ExperimentStore

/// Work the update asks the runtime to do; I/O as values, performed outside the pure update.
public enum Effect: Equatable, Sendable {
    /// Apply a change in one store transaction, refused if the experiment moved past `expectedRevision`.
    case apply(Change, expectedRevision: Int?)
    /// Read a CSV file and import it into `experiment`'s whitelist in one transaction.
    case importWhitelist(experiment: String, path: String, expectedRevision: Int)
    /// Read the store again (it changed on disk).
    case reload
    /// Close the console with this exit code.
    case quit(Int32)
    /// Read `experiment`'s event logs in the background (off the render loop), answering with `results…` actions.
    case loadResults(requestID: Int, experiment: String)
    /// Stop the background load `requestID` (Esc).
    case cancelResults(requestID: Int)
}

/// What happens to the console: a key, or the result of an effect.
public enum Action: Equatable, Sendable {
    case key(Key)
    /// A change was saved; `snapshot` is the store after it.
    case changeApplied(message: String, snapshot: StoreSnapshot)
    /// A change was refused or failed; `snapshot` is the fresh store when it could be read.
    case changeFailed(message: String, isConflict: Bool, snapshot: StoreSnapshot?)
    /// The store changed on disk and was read again.
    case storeReloaded(StoreSnapshot)
    /// The store could not be read again; the console keeps showing the last good state.
    case storeUnreadable(message: String)
    /// A background load read `rows` rows in `elapsed` seconds so far.
    case resultsProgress(requestID: Int, rows: Int, elapsed: Double)
    /// A background load finished.
    case resultsLoaded(requestID: Int, Analysis)
    /// A background load failed (a missing log, a malformed row), or was cancelled.
    case resultsFailed(requestID: Int, message: String)
}

/// A yes/no question restating an irreversible or important change before it is applied.
public struct Confirmation: Equatable, Sendable {
    public var title: String
    public var lines: [String]
    public var change: Change
    public var expectedRevision: Int?
    /// The form that asked (e.g. the ramp editor, with what was typed); `n`/`Esc` returns to it.
    public var returnTo: Overlay?

    public init(title: String, lines: [String], change: Change, expectedRevision: Int?, returnTo: Overlay? = nil) {
        self.title = title
        self.lines = lines
        self.change = change
        self.expectedRevision = expectedRevision
        self.returnTo = returnTo
    }
}
