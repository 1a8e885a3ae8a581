import ExperimentCore
import ExperimentStore

/// The audit log, newest first, for all experiments or one; `a` switches between the two.
public struct HistoryScreen: Equatable, Sendable {
    /// The experiment shown, or nil for all.
    public var experimentKey: String?
    /// The experiment `a` narrows to when all are shown (the one the screen was opened on).
    public var scopeKey: String?
    /// The selected row, 0 being the newest change.
    public var selected = 0

    public init(experimentKey: String?) {
        self.experimentKey = experimentKey
        scopeKey = experimentKey
    }

    /// The positions in `snapshot.history` of the entries shown, newest first (no entry is copied).
    func rows(in snapshot: StoreSnapshot) -> [Int] {
        let history = snapshot.history
        guard let experimentKey else { return Array(history.indices.reversed()) }
        return history.indices.reversed().filter { history[$0].experiment == experimentKey }
    }
}

extension HistoryScreen {
    /// Whether the selected change is shown in full below the rows (when there is room).
    static func showsDetail(bodyHeight: Int) -> Bool { bodyHeight >= 10 }

    /// The change rows shown in an area `bodyHeight` rows high (below the scope line and the header).
    static func visibleRows(bodyHeight: Int) -> Int {
        max(1, bodyHeight - 2 - (showsDetail(bodyHeight: bodyHeight) ? 3 : 0))
    }

    /// Handles a key while this is on top.
    mutating func handle(_ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        let count = rows(in: context.snapshot).count
        let page = Self.visibleRows(bodyHeight: context.bodyHeight)
        switch intent {
        case .moveDown?: select(selected + 1, count: count)
        case .moveUp?: select(selected - 1, count: count)
        case .top?: select(0, count: count)
        case .bottom?: select(count - 1, count: count)
        case .pageDown?: select(selected + page, count: count)
        case .pageUp?: select(selected - page, count: count)
        case .historyToggleScope?:
            selected = 0
            if experimentKey != nil {
                experimentKey = nil
            } else if let key = scopeKey ?? context.focusedExperiment?.key {
                experimentKey = key
                scopeKey = key
            } else {
                return .show(.error("no experiment to narrow the history to; the store has none"))
            }
        case .back?, .quit?, .cancel?:
            return .close()
        default:
            return .browse(intent)
        }
        return .none
    }

    private mutating func select(_ row: Int, count: Int) {
        selected = max(0, min(row, count - 1))
    }

    /// Draws the scope line, the visible rows, and the selected change in full at the bottom.
    static func render(_ value: HistoryScreen, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let entries = value.rows(in: app.snapshot)
        let history = app.snapshot.history
        let x = area.x + 1, width = area.width - 2
        let scope = value.experimentKey.map { "history of `\(SafeText.escaped($0))`" } ?? "history of all experiments"
        let toggle = value.experimentKey == nil ? (value.scopeKey.map { "a: only `\(SafeText.escaped($0))`" } ?? "a: only the selected experiment") : "a: all experiments"
        let count = "\(entries.count) \(entries.count == 1 ? "change" : "changes"), newest first"
        let used = buffer.write(scope, x: x, y: area.y, maxWidth: width, style: .bold)
        buffer.write(" · \(count) · \(toggle)", x: x + used, y: area.y, maxWidth: width - used, style: Palette.dim)
        let columns = Columns(width: width)
        columns.header(x: x, y: area.y + 1, into: &buffer)
        guard !entries.isEmpty else {
            buffer.write("no changes recorded yet", x: x + 1, y: area.y + 3, maxWidth: width - 2, style: Palette.dim)
            return
        }
        let selected = min(value.selected, entries.count - 1)
        let showsDetail = Self.showsDetail(bodyHeight: area.height)
        let rows = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2 - (showsDetail ? 3 : 0))
        let first = Scrolling.firstRow(selected: selected, count: entries.count, visible: rows.height)
        for row in first..<min(entries.count, first + rows.height) {
            columns.row(history[entries[row]], x: x, y: rows.y + row - first, selected: row == selected, into: &buffer)
        }
        guard showsDetail else { return }
        let entry = history[entries[selected]]
        let y = rows.maxY + 1
        for (offset, (label, text)) in [("before", entry.before ?? "∅"), ("after", entry.after ?? "∅")].enumerated() {
            buffer.write(label, x: x, y: y + offset, style: Palette.dim)
            buffer.write(SafeText.escaped(text), x: x + 8, y: y + offset, maxWidth: width - 8)
        }
    }

    /// Column positions for a given width; the change takes what the others leave.
    struct Columns {
        let width: Int
        var time: Int { 16 }
        var operatorName: Int { 14 }
        var experiment: Int { 24 }
        var action: Int { 16 }
        var change: Int { max(10, width - time - operatorName - experiment - action - 4) }

        func header(x: Int, y: Int, into buffer: inout ScreenBuffer) {
            var column = x
            for (title, size) in [("TIME", time), ("OPERATOR", operatorName), ("EXPERIMENT", experiment), ("ACTION", action), ("BEFORE → AFTER", change)] {
                buffer.write(title, x: column, y: y, maxWidth: size, style: Palette.header)
                column += size + 1
            }
        }

        func row(_ entry: HistoryEntry, x: Int, y: Int, selected: Bool, into buffer: inout ScreenBuffer) {
            var column = x
            buffer.write(TimeText.short(entry.at), x: column, y: y, maxWidth: time, style: selected ? Palette.selected : Palette.dim)
            column += time + 1
            buffer.write(SafeText.escaped(entry.operatorName), x: column, y: y, maxWidth: operatorName)
            column += operatorName + 1
            buffer.write(SafeText.escaped(entry.experiment), x: column, y: y, maxWidth: experiment, style: .bold)
            column += experiment + 1
            buffer.write(entry.action.rawValue, x: column, y: y, maxWidth: action, style: Palette.key)
            column += action + 1
            buffer.write(SafeText.escaped("\(entry.before ?? "∅") → \(entry.after ?? "∅")"), x: column, y: y, maxWidth: change)
            if selected { buffer.write("▶", x: x - 1, y: y, style: Palette.key) }
        }
    }
}
