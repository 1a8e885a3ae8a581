import ExperimentCore

extension HistoryScreen {
    /// The rows the selected change takes in full below the table in an area `bodyHeight` rows high
    /// (a blank line, who and when, before, and after over up to four lines), or fewer or none when short.
    static func detailHeight(bodyHeight: Int) -> Int {
        bodyHeight >= 16 ? 7 : bodyHeight >= 10 ? 3 : 0
    }

    /// The change rows shown in an area `bodyHeight` rows high (below the scope line, the filter and the header).
    static func visibleRows(bodyHeight: Int, showsFilter: Bool) -> Int {
        max(1, bodyHeight - 2 - (showsFilter ? 1 : 0) - detailHeight(bodyHeight: bodyHeight))
    }

    /// Draws the scope line, the filter, the visible rows, and the selected change in full at the bottom.
    static func render(_ value: HistoryScreen, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let entries = value.rows(in: app.snapshot)
        let history = app.snapshot.history
        let x = area.x + 1, width = area.width - 2
        let current = value.selectedEntry(entries).map { history[$0] }
        let scope = value.experimentKey.map { "history of `\(SafeText.escaped($0))`" } ?? "history of all experiments"
        let toggle = value.experimentKey == nil ? (current.map { "a: only `\(SafeText.escaped($0.experiment))`" } ?? "") : "a: all experiments"
        let count = value.filter.isEmpty ? "\(entries.count) \(entries.count == 1 ? "change" : "changes"), newest first" : "\(entries.count) matching, newest first"
        let used = buffer.write(scope, x: x, y: area.y, maxWidth: width, style: .bold)
        buffer.write(" · \(count)" + (toggle.isEmpty ? "" : " · \(toggle)"), x: x + used, y: area.y, maxWidth: width - used, style: Palette.dim)
        var table = area.inset(top: 1)
        if value.isFiltering || !value.filter.isEmpty {
            FilterLine.render(value.filterField, typing: value.isFiltering, x: x, y: table.y, width: width, into: &buffer)
            table = table.inset(top: 1)
        }
        let longest = value.experimentKey == nil ? entries.reduce(0) { max($0, DisplayWidth.of(SafeText.escaped(history[$1].experiment))) } : nil
        let columns = HistoryColumns(width: width, longestExperiment: longest)
        columns.header(x: x, y: table.y, into: &buffer)
        guard let current else {
            let text = value.filter.isEmpty ? "no changes recorded yet" : "no change matches the filter — Esc clears it"
            buffer.write(text, x: x + 1, y: table.y + 2, maxWidth: width - 2, style: Palette.dim)
            return
        }
        let selected = min(value.selected, entries.count - 1)
        let detail = detailHeight(bodyHeight: area.height)
        let rows = Rect(x: area.x, y: table.y + 1, width: area.width, height: area.maxY - table.y - 1 - detail)
        let first = Scrolling.firstRow(selected: selected, count: entries.count, visible: rows.height)
        for row in first..<min(entries.count, first + rows.height) {
            columns.row(history[entries[row]], x: x, y: rows.y + row - first, selected: row == selected, into: &buffer)
        }
        guard detail > 0 else { return }
        renderDetail(current, x: x, y: rows.maxY + 1, width: width, height: detail - 1, into: &buffer)
    }

    /// The selected change in full: who and when (when there is room), before, and after wrapped.
    private static func renderDetail(_ entry: HistoryEntry, x: Int, y: Int, width: Int, height: Int, into buffer: inout ScreenBuffer) {
        var lines: [(String, String)] = []
        if height > 2 {
            lines.append(("by", "\(entry.operatorName) · \(TimeLabel.utc(entry.at))"))
        }
        lines.append(("before", entry.before ?? "∅"))
        let after = WordWrap.lines(SafeText.escaped(entry.after ?? "∅"), width: width - 8, maxLines: max(1, height - lines.count))
        for (offset, (label, text)) in lines.enumerated() {
            buffer.write(label, x: x, y: y + offset, style: Palette.dim)
            buffer.write(SafeText.escaped(text), x: x + 8, y: y + offset, maxWidth: width - 8)
        }
        for (offset, line) in after.enumerated() {
            if offset == 0 { buffer.write("after", x: x, y: y + lines.count, style: Palette.dim) }
            buffer.write(line, x: x + 8, y: y + lines.count + offset, maxWidth: width - 8)
        }
    }
}
