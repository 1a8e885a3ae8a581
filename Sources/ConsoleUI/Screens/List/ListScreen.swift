/// Keys on the experiment list: movement, the incremental filter, and the action keys.
extension ListState {
    /// Handles a key on the list; the filter takes the keys while `/` is active.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        if isFiltering { return handleFilter(key, intent, context) }
        let rows = context.rows.listRows(context.snapshot, filter: filter)
        let page = ListView.visibleRows(bodyHeight: context.bodyHeight, showsFilter: !filter.isEmpty)
        switch intent {
        case .moveDown?: moveSelection(by: 1, rows)
        case .moveUp?: moveSelection(by: -1, rows)
        case .top?: moveSelection(by: -Int.max / 2, rows)
        case .bottom?: moveSelection(by: Int.max / 2, rows)
        case .pageDown?: moveSelection(by: page, rows)
        case .pageUp?: moveSelection(by: -page, rows)
        case .open?:
            if let key = selectedKey { return .push(.detail(key: key)) }
        case .filter?:
            isFiltering = true
            filterField.selectAll()
        case .quit?:
            return .quit(0)
        case .back?:
            filter = ""
            keepSelection(context.rows.listRows(context.snapshot, filter: filter))
        default:
            return .browse(intent)
        }
        return .none
    }

    /// Typing narrows the list at once; Enter keeps the filter, Esc clears it, ↑/↓ still move.
    private mutating func handleFilter(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .submit?:
            isFiltering = false
            let rows = context.rows.listRows(context.snapshot, filter: filter)
            if !rows.isEmpty { selectedKey = rows.key(at: 0) }
            return .none
        case .cancel?:
            isFiltering = false
            filter = ""
            keepSelection(context.rows.listRows(context.snapshot, filter: filter))
            return .none
        case .moveDown?, .moveUp?:
            moveSelection(by: intent == .moveDown ? 1 : -1, context.rows.listRows(context.snapshot, filter: filter))
            return .none
        default:
            break
        }
        let before = filter
        guard filterField.type(key), filter != before else { return .none }
        selectFirst(context.rows.listRows(context.snapshot, filter: filter))
        return .none
    }

    /// Selects the first row, or nothing when no experiment matches.
    private mutating func selectFirst(_ rows: ListRows) {
        selectedKey = rows.isEmpty ? nil : rows.key(at: 0)
    }

    /// Selects the experiment `offset` rows away in the visible list (clamped).
    mutating func moveSelection(by offset: Int, _ rows: ListRows) {
        guard !rows.isEmpty else { return selectedKey = nil }
        let current = selectedKey.flatMap(rows.row) ?? 0
        selectedKey = rows.key(at: min(max(current + offset, 0), rows.count - 1))
    }

    /// Keeps the selection on a visible row: the same experiment, else the next one by key.
    mutating func keepSelection(_ rows: ListRows) {
        guard !rows.isEmpty else { return selectedKey = nil }
        if let selectedKey, rows.row(of: selectedKey) != nil { return }
        selectedKey = rows.key(at: min(rows.rowAfter(selectedKey ?? ""), rows.count - 1))
    }
}
