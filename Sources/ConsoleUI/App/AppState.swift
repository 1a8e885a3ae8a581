import ExperimentCore
import ExperimentEditing

/// Everything the console shows, as a plain value: the store, the screens, the overlay, the message.
package struct AppState: Equatable, Sendable {
    /// The store as last read or written.
    package var snapshot: StoreSnapshot
    package let storePath: String
    package let operatorName: String
    /// Opened with `--read-only`: write actions explain why they are off.
    package let readOnly: Bool
    /// The experiment list's filter and selection: the list is the root under `stack`, never pushed.
    package var list = ListState()
    /// Screens opened above the experiment list, the top one last.
    package var stack: [Screen] = []
    /// A form or confirmation drawn over the screen; it takes the keys while open.
    package var overlay: Overlay?
    /// The scrollable panel: the `?` overlay or the message log (`help.page`).
    package var showsHelp = false
    /// Where the panel is scrolled and what it searches; fresh each time it opens.
    package var help = HelpState()
    /// The status line; cleared by the next key that does something.
    package var message: StatusMessage?
    /// The last status messages, oldest first (`L` shows them whole).
    package var messageLog: [LoggedMessage] = []
    /// Why the live reload cannot read the store, until it reads a good one.
    package var storeTrouble: StoreTrouble?
    /// Where the store stands in git (branch, upstream, uncommitted or conflicted); nil outside a repository.
    package var git: GitStatus?
    /// The conflicts of a merge git left unfinished in the store (read from the index stages by the runtime).
    package var gitConflicts: [MergeConflict] = []
    /// Why git lists the store as conflicted with no conflict to pick, and the way out (the title bar and the log say it).
    package var gitTrouble: String?
    /// The terminal's size, for paging by the rows a screen shows.
    package var size = TerminalSize.standard
    /// Effects running off the render loop (saves, loads), oldest first.
    package var jobs: [Job] = []
    /// The id the next job gets.
    package var nextJobID = 1
    /// The console's one read of an experiment's logs, loading or loaded: data like `snapshot`, not a screen's
    /// state. The results screen (`e`) and the resolve form's evidence show it; it outlives both, so they
    /// show it again without reading the logs again.
    package var results: ResultsState?
    /// The inspector as the user last left it: `i` opens it again with the same ids and table.
    package var lastInspector = InspectorScreen()

    package init(snapshot: StoreSnapshot, storePath: String, operatorName: String, readOnly: Bool = false) {
        self.snapshot = snapshot
        self.storePath = storePath
        self.operatorName = operatorName
        self.readOnly = readOnly
        let rows = ListRows(snapshot, filter: "")
        list.selectedKey = rows.isEmpty ? nil : rows.key(at: 0)
    }

    /// The screen on top (the list when nothing is open).
    package var screen: Screen { stack.last ?? .list }

    /// The experiment the action keys act on: the open one, else the one selected in the list.
    package var focusedExperiment: Experiment? {
        for screen in stack.reversed() {
            if let key = screen.experimentKey { return snapshot.experiments[key] }
        }
        return list.selectedKey.flatMap { snapshot.experiments[$0] }
    }

    /// The list's experiments after the filter, sorted by key (computed afresh; views use a `RowCache`).
    package var visibleExperiments: [Experiment] { ListRows(snapshot, filter: list.filter).experiments }

    /// Where the keys go now, for dispatch and the help bar: the help overlay while it is open.
    /// Typing a search in the panel takes the keys as a filter does.
    package var bindingContext: BindingContext { showsHelp ? (help.isSearching ? .filter : .help) : contentContext }

    /// Where the keys go beneath the help overlay (the bindings `?` lists).
    package var contentContext: BindingContext {
        switch overlay {
        case .ramp?: return .rampEditor
        case .confirm?: return .confirm
        case .some: return .form
        case nil:
            switch screen {
            case .list where list.isFiltering: return .filter
            case .whitelist(let screen) where screen.isFiltering: return .filter
            case .history(let screen) where screen.isFiltering: return .filter
            default: return screen.bindingContext
            }
        }
    }
}

/// The experiment list's filter and selection (kept by key so reloads keep it).
package struct ListState: Equatable, Sendable {
    /// The filter as typed, with its cursor.
    package var filterField = TextField()
    /// The filter's text (setting it puts the cursor at the end).
    package var filter: String {
        get { filterField.text }
        set { filterField.text = newValue }
    }
    /// Whether `/` is active and keys type into the filter.
    package var isFiltering = false
    package var selectedKey: String?

    package init() {}
}

/// A line for the status bar: what just happened, or what went wrong.
package struct StatusMessage: Equatable, Sendable {
    package var text: String
    package var isError: Bool

    package static func info(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: false) }
    package static func error(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: true) }
}
