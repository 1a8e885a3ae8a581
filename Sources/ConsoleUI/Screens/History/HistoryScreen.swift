import ExperimentCore

/// The audit log, newest first, for all experiments or one; `a` switches between the two and `/` filters.
package struct HistoryScreen: Equatable, Sendable {
    /// The experiment shown, or nil for all.
    package var experimentKey: String?
    /// The filter as typed, with its cursor.
    package var filterField = TextField()
    /// Matches experiment, operator, action, or the state before or after (ASCII letters case-insensitively); setting it puts the cursor at the end.
    package var filter: String {
        get { filterField.text }
        set { filterField.text = newValue }
    }
    /// Whether `/` is active and keys type into the filter.
    package var isFiltering = false
    /// The selected row, 0 being the newest change shown.
    package var selected = 0

    package init(experimentKey: String?) {
        self.experimentKey = experimentKey
    }

    /// The positions in `snapshot.history` of the entries shown, newest first (no entry is copied).
    func rows(in snapshot: StoreSnapshot) -> [Int] {
        let history = snapshot.history
        let needle = FilterNeedle(filter)
        return history.indices.reversed().filter { index in
            let entry = history[index]
            guard experimentKey.map({ entry.experiment == $0 }) ?? true else { return false }
            return needle.isEmpty || needle.matches(entry.experiment) || needle.matches(entry.operatorName)
                || needle.matches(entry.action.rawValue) || needle.matches(entry.before ?? "") || needle.matches(entry.after ?? "")
        }
    }

    /// The position in `snapshot.history` of the selected entry among `rows`, if any.
    func selectedEntry(_ rows: [Int]) -> Int? {
        rows.isEmpty ? nil : rows[min(selected, rows.count - 1)]
    }
}

extension HistoryScreen {
    /// Handles a key while this is on top.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        if isFiltering { return typeFilter(key, intent, context) }
        let rows = rows(in: context.snapshot)
        let page = Self.visibleRows(bodyHeight: context.bodyHeight, showsFilter: !filter.isEmpty)
        switch intent {
        case .moveDown?: select(selected + 1, count: rows.count)
        case .moveUp?: select(selected - 1, count: rows.count)
        case .top?: select(0, count: rows.count)
        case .bottom?: select(rows.count - 1, count: rows.count)
        case .pageDown?: select(selected + page, count: rows.count)
        case .pageUp?: select(selected - page, count: rows.count)
        case .filter?:
            isFiltering = true
            filterField.selectAll()
        case .historyToggleScope?:
            return toggleScope(rows, context.snapshot)
        case .back? where key == .escape && !filter.isEmpty:
            filter = ""
            keepEntry(rows, context.snapshot)
        case .back?, .quit?, .cancel?:
            return .close()
        default:
            return .browse(intent)
        }
        return .none
    }

    /// Switches between all experiments and the experiment of the entry under the cursor, keeping that entry selected.
    private mutating func toggleScope(_ rows: [Int], _ snapshot: StoreSnapshot) -> ScreenReply {
        if experimentKey != nil {
            experimentKey = nil
        } else if let entry = selectedEntry(rows) {
            let key = snapshot.history[entry].experiment
            // A screen about an experiment closes when it is gone (`repairAfterReload`).
            guard snapshot.experiments[key] != nil else {
                return .show(.error("`\(key)` was deleted; `abconsole history \(key)` lists its changes"))
            }
            experimentKey = key
        } else {
            return .show(.error("no change is selected: there is no experiment to narrow the history to"))
        }
        keepEntry(rows, snapshot)
        return .none
    }

    /// After the scope or the filter changed: selects the entry that was selected among `before`, else the newest.
    private mutating func keepEntry(_ before: [Int], _ snapshot: StoreSnapshot) {
        let entry = selectedEntry(before)
        selected = entry.flatMap { rows(in: snapshot).firstIndex(of: $0) } ?? 0
    }

    /// Typing narrows at once; Enter keeps the filter, Esc clears it; ↑/↓ still move.
    private mutating func typeFilter(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        let before = rows(in: context.snapshot)
        switch intent {
        case .submit?:
            isFiltering = false
        case .cancel?:
            isFiltering = false
            filter = ""
            keepEntry(before, context.snapshot)
        case .moveDown?, .moveUp?:
            select(selected + (intent == .moveDown ? 1 : -1), count: before.count)
        default:
            let typed = filter
            guard filterField.type(key), filter != typed else { return .none }
            selected = 0
        }
        return .none
    }

    private mutating func select(_ row: Int, count: Int) {
        selected = max(0, min(row, count - 1))
    }
}
