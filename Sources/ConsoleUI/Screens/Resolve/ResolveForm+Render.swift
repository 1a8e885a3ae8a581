import ExperimentCore

extension ResolveForm {
    /// A row of the form column.
    private enum Row {
        case blank, winnerLabel, winner, winnerHint, keyLabel, key, field, footer
        case warning(String)
        case problem(String)

        /// The footer sits on the bottom line whatever the rows above.
        var isFooter: Bool {
            guard case .footer = self else { return false }
            return true
        }
    }

    /// The width of the form column; the evidence takes the rest.
    private static let formWidth = 38
    /// The narrowest evidence column worth drawing; below it the form takes the whole box.
    private static let evidenceMinimum = 30

    /// Draws the form on the left and the evidence (status, weights, whitelist, history) on the right.
    static func render(_ form: ResolveForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let experiment = app.snapshot.experiments[form.experimentKey]
        let boxWidth = min(96, area.width)
        let showsEvidence = boxWidth - 4 - formWidth - 3 >= evidenceMinimum && experiment != nil
        let leftWidth = showsEvidence ? formWidth : boxWidth - 4
        let left = rows(form, width: leftWidth)
        let rightWidth = boxWidth - 4 - formWidth - 3
        let right = experiment.map { ResolveEvidence.rows(form, $0, history: app.snapshot.history, results: app.results, width: rightWidth) } ?? RowLayout()
        let rect = Box.centered(width: boxWidth, height: max(left.count, showsEvidence ? right.count : 0) + 2, in: area)
        Box.render(rect, title: "Resolve \(form.experimentKey) — irreversible", into: &buffer)
        let content = Box.content(of: rect)
        let leftArea = Rect(x: content.x, y: content.y, width: leftWidth, height: content.height)
        for (offset, row) in left.fitting(content.height).enumerated() {
            let y = row.isFooter ? leftArea.maxY - 1 : leftArea.y + offset
            draw(row, form, x: leftArea.x, y: y, width: leftArea.width, into: &buffer)
        }
        guard showsEvidence, let experiment else { return }
        for row in content.y..<content.maxY { buffer.write("│", x: leftArea.maxX + 1, y: row, style: Palette.dim) }
        let rightArea = Rect(x: leftArea.maxX + 3, y: content.y, width: content.maxX - leftArea.maxX - 3, height: content.height)
        ResolveEvidence.render(right.fitting(content.height), form, experiment, results: app.results, into: &buffer, area: rightArea)
    }

    /// Every row of the form column in order; spacing and hints give way on short screens.
    private static func rows(_ form: ResolveForm, width: Int) -> RowLayout<Row> {
        var layout = RowLayout<Row>()
        layout.add(.blank, keep: .spacing)
        layout.add([.winnerLabel, .winner])
        layout.add(.winnerHint, keep: .detail)
        layout.add(.blank, keep: .spacing)
        layout.add(.keyLabel)
        layout.add(.key, keep: .detail)
        layout.add(.field)
        layout.add(.blank, keep: .spacing)
        if let changed = form.changed {
            let text = changed.text + "; the form shows the fresh state: type the key again to resolve"
            layout.add(WordWrap.lines(SafeText.escaped(text), width: width).map(Row.warning))
            layout.add(.blank, keep: .spacing)
        }
        let warning = "This cannot be undone: `\(form.winnerName)` will be served to everyone, forever. Ramping, whitelisting and new variants are refused afterwards."
        layout.add(WordWrap.lines(SafeText.escaped(warning), width: width, maxLines: 4).map(Row.warning))
        if let problem = form.problem {
            layout.add(.blank, keep: .spacing)
            layout.add(WordWrap.lines("✗ " + SafeText.escaped(problem), width: width).map(Row.problem))
        }
        layout.add(.blank, keep: .spacing)
        layout.add(.footer, keep: .detail)
        return layout
    }

    private static func draw(_ row: Row, _ form: ResolveForm, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let winnerFocused = form.focus == .winner, keyFocused = form.focus == .confirmation
        switch row {
        case .blank:
            break
        case .winnerLabel:
            if winnerFocused { buffer.write("▶", x: x, y: y, style: Palette.key) }
            buffer.write("Winner", x: x + 2, y: y, style: winnerFocused ? Palette.key : .plain)
        case .winner:
            let choice = "◀ \(Palette.variantGlyph(form.winner)) \(form.winnerName) ▶"
            buffer.write(SafeText.escaped(choice), x: x + 2, y: y, maxWidth: width - 2, style: winnerFocused ? Palette.selected : .underline)
        case .winnerHint:
            let hint = form.query.isEmpty ? "←/→ or type a name" : "typed: \(form.query)"
            buffer.write(SafeText.escaped(hint), x: x + 2, y: y, maxWidth: width - 2, style: Palette.dim)
        case .keyLabel:
            if keyFocused { buffer.write("▶", x: x, y: y, style: Palette.key) }
            buffer.write("Type the key to confirm", x: x + 2, y: y, maxWidth: width - 2, style: keyFocused ? Palette.key : .plain)
        case .key:
            buffer.write(SafeText.escaped(form.experimentKey), x: x + 2, y: y, maxWidth: width - 2, style: Palette.dim)
        case .field:
            TextField.render(form.confirmation, label: "", focused: keyFocused, x: x + 1, y: y, width: width - 1, into: &buffer)
        case .warning(let line):
            buffer.write(line, x: x, y: y, maxWidth: width, style: CellStyle.fg(.yellow).bolded)
        case .problem(let line):
            buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.error)
        case .footer:
            buffer.write("Tab switches field · Enter resolves", x: x, y: y, maxWidth: width, style: Palette.dim)
        }
    }
}
