/// Keys on the experiment list: movement, the incremental filter, and the action keys.
enum ListScreen {
    /// Rows PgUp/PgDn move.
    static let page = 10

    static func handle(_ key: Key, _ intent: Intent?, _ state: inout AppState) -> [Effect] {
        if state.list.isFiltering { return handleFilter(key, &state) }
        switch intent {
        case .moveDown?: state.moveSelection(by: 1)
        case .moveUp?: state.moveSelection(by: -1)
        case .top?: state.moveSelection(by: -Int.max / 2)
        case .bottom?: state.moveSelection(by: Int.max / 2)
        case .pageDown?: state.moveSelection(by: page)
        case .pageUp?: state.moveSelection(by: -page)
        case .open?:
            if let key = state.list.selectedKey { state.stack.append(.detail(key: key)) }
        case .filter?:
            state.list.isFiltering = true
        case .quit?:
            return [.quit(0)]
        case .back?:
            state.list.filter = ""
            state.repairAfterReload()
        default:
            return ConsoleUpdate.handleBrowsing(intent, &state)
        }
        return []
    }

    /// Typing narrows the list at once; Enter keeps the filter, Esc clears it.
    private static func handleFilter(_ key: Key, _ state: inout AppState) -> [Effect] {
        switch key {
        case .enter:
            state.list.isFiltering = false
            state.refreshListRows()
            if !state.list.rows.isEmpty { state.list.selectedKey = state.list.rows.key(at: 0) }
        case .escape:
            state.list.isFiltering = false
            state.list.filter = ""
            state.repairAfterReload()
        case .backspace:
            if !state.list.filter.isEmpty { state.list.filter.removeLast() }
        case .character(let character) where !character.isNewline:
            state.list.filter.append(character)
        case .down: state.moveSelection(by: 1)
        case .up: state.moveSelection(by: -1)
        default:
            return []
        }
        if state.list.isFiltering, key != .down, key != .up {
            state.refreshListRows()
            state.list.selectedKey = state.list.rows.isEmpty ? nil : state.list.rows.key(at: 0)
        }
        return []
    }
}
