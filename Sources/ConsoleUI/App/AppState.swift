import ExperimentCore
import ExperimentStore

/// Everything the console shows, as a plain value: the store, the screens, the overlay, the message.
public struct AppState: Equatable, Sendable {
    /// The store as last read or written.
    public var snapshot: StoreSnapshot
    public let storePath: String
    public let operatorName: String
    /// Opened with `--read-only`: write actions explain why they are off.
    public let readOnly: Bool
    public var list = ListState()
    /// Screens opened above the experiment list, the top one last.
    public var stack: [Screen] = []
    /// A form or confirmation drawn over the screen; it takes the keys while open.
    public var overlay: Overlay?
    /// The `?` overlay.
    public var showsHelp = false
    public var message: StatusMessage?
    /// The results of one experiment, loading or loaded (`e`), also shown as the resolve form's evidence.
    public var results: ResultsState?
    /// The id of the last background load started (ids tell a stale answer from the current one).
    public var nextRequestID = 0

    public init(snapshot: StoreSnapshot, storePath: String, operatorName: String, readOnly: Bool = false) {
        self.snapshot = snapshot
        self.storePath = storePath
        self.operatorName = operatorName
        self.readOnly = readOnly
        list.rows.update(for: snapshot, filter: list.filter)
        list.selectedKey = list.rows.isEmpty ? nil : list.rows.key(at: 0)
    }

    /// The screen on top (the list when nothing is open).
    public var screen: Screen { stack.last ?? .list }

    /// The experiment the action keys act on: the open one, else the one selected in the list.
    public var focusedExperiment: Experiment? {
        for screen in stack.reversed() {
            if let key = screen.experimentKey { return snapshot.experiments[key] }
        }
        return list.selectedKey.flatMap { snapshot.experiments[$0] }
    }

    /// The list's experiments after the filter, sorted by key.
    public var visibleExperiments: [Experiment] { visibleRows.experiments }

    /// The list's rows: the cached ones when they describe this store and filter (always so after
    /// `ConsoleUpdate.update`), else computed afresh, so a state changed by hand never shows stale rows.
    var visibleRows: ListRows {
        list.rows.isCurrent(for: snapshot, filter: list.filter) ? list.rows : ListRows(snapshot, filter: list.filter)
    }

    /// Brings the list's cached rows up to date with the store and the filter.
    mutating func refreshListRows() {
        list.rows.update(for: snapshot, filter: list.filter)
    }

    /// Where the keys go now, for dispatch and the help bar.
    public var bindingContext: BindingContext {
        switch overlay {
        case .ramp?: return .rampEditor
        case .confirm?: return .confirm
        case .some: return .form
        case nil: return screen.bindingContext
        }
    }
}

/// The experiment list's filter and selection (kept by key so reloads keep it).
public struct ListState: Equatable, Sendable {
    public var filter = ""
    /// Whether `/` is active and keys type into the filter.
    public var isFiltering = false
    public var selectedKey: String?
    /// The first visible row.
    public var scroll = 0
    /// The sorted and filtered experiments, derived from the store (not part of equality).
    var rows = ListRows()

    public init() {}

    public static func == (lhs: ListState, rhs: ListState) -> Bool {
        lhs.filter == rhs.filter && lhs.isFiltering == rhs.isFiltering && lhs.selectedKey == rhs.selectedKey && lhs.scroll == rhs.scroll
    }
}

/// A line for the status bar: what just happened, or what went wrong.
public struct StatusMessage: Equatable, Sendable {
    public var text: String
    public var isError: Bool

    public static func info(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: false) }
    public static func error(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: true) }
}
