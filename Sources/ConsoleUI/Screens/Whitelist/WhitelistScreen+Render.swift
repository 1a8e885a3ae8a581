import ExperimentCore

extension WhitelistScreen {
    /// Draws the summary line, the filter, and the visible rows only (the whitelist may hold 100,000+).
    static func render(_ screen: WhitelistScreen, _ app: AppState, rows cache: RowCache, into buffer: inout ScreenBuffer, area: Rect) {
        guard let experiment = app.snapshot.experiments[screen.experimentKey] else { return }
        let entries = cache.whitelistRows(experiment, filter: screen.filter)
        let rows = entries.matching
        var area = area
        renderSummary(screen, entries, experiment, y: area.y, area: area, into: &buffer)
        area = area.inset(top: 1)
        if screen.isFiltering || !screen.filter.isEmpty {
            FilterLine.render(screen.filterField, typing: screen.isFiltering, x: area.x + 1, y: area.y, width: area.width - 2, into: &buffer)
            area = area.inset(top: 1)
        }
        let columns = Columns(width: area.width)
        columns.header(y: area.y, into: &buffer)
        let body = area.inset(top: 1)
        guard !rows.isEmpty else {
            let text = experiment.whitelist.isEmpty
                ? (experiment.status == .resolved ? "no whitelisted subjects" : "no whitelisted subjects yet — a adds one, I imports a CSV file")
                : "no entry matches the filter — Esc clears it"
            buffer.write(text, x: body.x + 1, y: body.y + 1, maxWidth: body.width - 2, style: Palette.dim)
            return
        }
        let selected = screen.selectedIndex(in: entries)
        let first = Scrolling.firstRow(selected: selected, count: rows.count, visible: body.height)
        let variantIndex = Dictionary(experiment.variants.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for row in first..<min(rows.count, first + body.height) {
            let entry = entries[row]
            columns.row(entry, variantIndex: variantIndex[entry.variant], y: body.y + row - first, selected: row == selected, into: &buffer)
        }
    }

    /// `12 entries · rows 1–24` (or `3 of 12 entries match`), and why changes are off when they are.
    private static func renderSummary(_ screen: WhitelistScreen, _ entries: WhitelistRows, _ experiment: Experiment, y: Int, area: Rect,
                                      into buffer: inout ScreenBuffer) {
        let total = experiment.whitelist.count
        let shown = entries.matching.count
        var text = screen.filter.isEmpty ? "\(total) \(total == 1 ? "entry" : "entries")" : "\(shown) of \(total) entries match"
        if shown > 0 {
            let visible = visibleRows(bodyHeight: area.height, showsFilter: screen.isFiltering || !screen.filter.isEmpty)
            let first = Scrolling.firstRow(selected: screen.selectedIndex(in: entries), count: shown, visible: visible)
            text += " · rows \(first + 1)–\(min(shown, first + visible))"
        }
        text += " · \(experiment.type.rawValue) ids, sorted by subject"
        let used = buffer.write(text, x: area.x + 1, y: y, maxWidth: area.width - 2, style: Palette.dim)
        let note: (String, CellStyle)? = experiment.status == .resolved
            ? ("resolved: the whitelist is frozen", Palette.status(.resolved))
            : experiment.status == .paused ? ("paused: everyone gets `\(experiment.control)`, whitelisted too", Palette.status(.paused)) : nil
        if let note, area.width - used - 6 > 10 {
            buffer.write(SafeText.escaped(note.0), x: area.x + used + 4, y: y, maxWidth: area.width - used - 6, style: note.1)
        }
    }

    /// Column positions for a given width; subject and note share what the others leave.
    struct Columns {
        let width: Int
        var variant: Int { 16 }
        var addedBy: Int { 14 }
        var addedAt: Int { 20 }
        private var rest: Int { max(20, width - 2 - variant - addedBy - addedAt - 4) }
        var subject: Int { rest * 6 / 10 }
        var note: Int { rest - subject }

        private var layout: [(title: String, width: Int)] {
            [("SUBJECT", subject), ("VARIANT", variant), ("NOTE", note), ("ADDED BY", addedBy), ("ADDED AT", addedAt)]
        }

        func header(y: Int, into buffer: inout ScreenBuffer) {
            var x = 1
            for column in layout {
                buffer.write(column.title, x: x, y: y, maxWidth: column.width, style: Palette.header)
                x += column.width + 1
            }
        }

        func row(_ entry: WhitelistEntry, variantIndex: Int?, y: Int, selected: Bool, into buffer: inout ScreenBuffer) {
            var x = 1
            buffer.write(SafeText.escaped(entry.subject), x: x, y: y, maxWidth: subject, style: selected ? Palette.selected.bolded : .bold)
            x += subject + 1
            let glyph = variantIndex.map { "\(Palette.variantGlyph($0)) " } ?? "? "
            buffer.write(glyph + SafeText.escaped(entry.variant), x: x, y: y, maxWidth: variant,
                         style: variantIndex.map(Palette.variantStyle) ?? Palette.error)
            x += variant + 1
            buffer.write(SafeText.escaped(entry.note), x: x, y: y, maxWidth: note)
            x += note + 1
            buffer.write(SafeText.escaped(entry.addedBy), x: x, y: y, maxWidth: addedBy, style: Palette.dim)
            x += addedBy + 1
            buffer.write(TimeLabel.utcMinutes(entry.addedAt), x: x, y: y, maxWidth: addedAt, style: Palette.dim)
            if selected { buffer.write("▶", x: 0, y: y, style: Palette.key) }
        }
    }
}
