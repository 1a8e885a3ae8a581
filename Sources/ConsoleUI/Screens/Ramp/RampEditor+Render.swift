import ExperimentCore

extension RampEditor {
    /// A row of the editor panel.
    private enum Row {
        case blank, status, header, field(Int), barNow, barNew, legend, footer
        case check(label: String, text: String, style: CellStyle)
        case note(String, CellStyle)
    }

    /// The width of the labels before the sum check, the unallocated share and who moves.
    private static let checkLabelWidth = 13

    /// Draws the editor: the weight fields, the old and new bars, the sum check and who moves.
    static func render(_ editor: RampEditor, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let experiment = app.snapshot.experiments[editor.experimentKey]
        let preview = RampPreview(editor, experiment: experiment)
        let boxWidth = min(80, area.width)
        let layout = rows(editor, preview, experiment: experiment, width: boxWidth - 4)
        let rect = Box.centered(width: boxWidth, height: layout.count + 2, in: area)
        Box.render(rect, title: "Ramp \(editor.experimentKey)", into: &buffer)
        let content = Box.content(of: rect)
        let columns = Columns(editor, width: content.width)
        for (offset, row) in layout.fitting(content.height).enumerated() {
            draw(row, editor, preview, experiment: experiment, columns: columns, x: content.x, y: content.y + offset, width: content.width, into: &buffer)
        }
    }

    /// Every row in order; spacing, the bar of today's weights and the footer give way on short screens.
    private static func rows(_ editor: RampEditor, _ preview: RampPreview, experiment: Experiment?, width: Int) -> RowLayout<Row> {
        var layout = RowLayout<Row>()
        layout.add(.status, keep: .detail)
        layout.add(.blank, keep: .spacing)
        layout.add(.header)
        layout.add(editor.fields.indices.map(Row.field))
        layout.add(.blank, keep: .spacing)
        layout.add(.barNow, keep: .detail)
        layout.add([.barNew, .legend])
        layout.add(.blank, keep: .spacing)
        layout.add(checkRows(preview, experiment: experiment, width: width - checkLabelWidth))
        let notes = noteLines(editor, width: width)
        if !notes.isEmpty {
            layout.add(.blank, keep: .spacing)
            layout.add(notes.map { Row.note($0.text, $0.style) })
        }
        layout.add(.blank, keep: .spacing)
        layout.add(.footer, keep: .detail)
        return layout
    }

    private static func draw(_ row: Row, _ editor: RampEditor, _ preview: RampPreview, experiment: Experiment?, columns: Columns,
                             x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        switch row {
        case .blank:
            break
        case .status:
            guard let experiment else { return }
            let used = buffer.write(experiment.status.rawValue, x: x, y: y, style: Palette.status(experiment.status))
            buffer.write(" · \(experiment.type.rawValue)-level · revision \(editor.revision)", x: x + used, y: y, maxWidth: width - used, style: Palette.dim)
        case .header:
            buffer.write("VARIANT", x: x + 2, y: y, style: Palette.header)
            buffer.write("NOW", x: x + columns.now, y: y, style: Palette.header)
            buffer.write("NEW", x: x + columns.new, y: y, style: Palette.header)
            buffer.write("CHANGE", x: x + columns.change, y: y, maxWidth: width - columns.change, style: Palette.header)
        case .field(let index):
            drawField(index, editor, preview, columns: columns, x: x, y: y, width: width, into: &buffer)
        case .barNow:
            buffer.write("now", x: x, y: y, style: Palette.dim)
            WeightBar.render(editor.before, x: x + 6, y: y, width: max(0, width - 6), into: &buffer)
        case .barNew:
            buffer.write("new", x: x, y: y, style: Palette.dim)
            WeightBar.render(preview.weights.map { $0 ?? .zero }, x: x + 6, y: y, width: max(0, width - 6), into: &buffer)
        case .legend:
            var column = x + 6
            for (text, style) in WeightBar.legend(zip(editor.variants, preview.weights).map { (name: $0, weight: $1 ?? .zero) }) where column < x + width {
                column += buffer.write(text, x: column, y: y, maxWidth: x + width - column, style: style) + 2
            }
        case .check(let label, let text, let style):
            buffer.write(label, x: x, y: y, style: Palette.dim)
            buffer.write(text, x: x + checkLabelWidth, y: y, maxWidth: width - checkLabelWidth, style: style)
        case .note(let text, let style):
            buffer.write(text, x: x, y: y, maxWidth: width, style: style)
        case .footer:
            buffer.write("the first digit typed replaces a field · Enter reviews before saving", x: x, y: y, maxWidth: width, style: Palette.dim)
        }
    }

    /// Where the columns of the field rows start, relative to the content's left edge.
    private struct Columns {
        let name: Int, now: Int, new: Int, change: Int

        init(_ editor: RampEditor, width: Int) {
            name = min(max(12, editor.variants.map { DisplayWidth.of($0) + 2 }.max() ?? 0), max(12, width - 40))
            now = 2 + name + 1
            new = now + 10
            change = new + 13
        }
    }

    /// One variant: the focus marker, name, the weight now, the typed field, and the change.
    private static func drawField(_ index: Int, _ editor: RampEditor, _ preview: RampPreview, columns: Columns,
                                  x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let focused = index == editor.focus
        if focused { buffer.write("▶", x: x, y: y, style: Palette.key) }
        buffer.write(SafeText.escaped("\(Palette.variantGlyph(index)) \(editor.variants[index])"), x: x + 2, y: y, maxWidth: columns.name,
                     style: Palette.variantStyle(index))
        let now = "\(editor.before[index]) %"
        buffer.write(now, x: x + columns.now + 6 - DisplayWidth.of(now), y: y)
        TextField.draw(editor.fields[index], focused: focused, x: x + columns.new, y: y, width: 8, into: &buffer)
        buffer.write("%", x: x + columns.new + 9, y: y)
        let room = width - columns.change
        if let new = preview.weights[index] {
            let delta = new.buckets - editor.before[index].buckets
            let text = delta == 0 ? "—" : (delta > 0 ? "▲ +" : "▼ −") + "\(Weight(buckets: abs(delta))) %"
            buffer.write(text, x: x + columns.change, y: y, maxWidth: room, style: delta == 0 ? Palette.dim : .plain)
        } else {
            buffer.write("✗ not a weight", x: x + columns.change, y: y, maxWidth: room, style: Palette.error)
        }
    }

    /// What another writer changed (the numbers shown are already the new ones) and the last refusal, whole.
    private static func noteLines(_ editor: RampEditor, width: Int) -> [(text: String, style: CellStyle)] {
        var lines: [(text: String, style: CellStyle)] = []
        if let changed = editor.changed {
            let text = changed.text + "; NOW, the preview and who moves show the new weights, what you typed is kept"
            lines += WordWrap.lines(SafeText.escaped(text), width: width).map { ($0, Palette.warning) }
        }
        if let problem = editor.problem {
            lines += WordWrap.lines("✗ " + SafeText.escaped(problem), width: width).map { ($0, Palette.error) }
        }
        return lines
    }

    /// The sum check (with the reason when it fails), the unallocated share, and who moves.
    private static func checkRows(_ preview: RampPreview, experiment: Experiment?, width: Int) -> [Row] {
        var rows: [Row] = []
        if let problem = preview.problem {
            rows.append(.check(label: "sum", text: "\(preview.total) % ✗", style: Palette.error))
            rows += WordWrap.lines(SafeText.escaped(problem), width: width, maxLines: 3).map { .check(label: "", text: $0, style: Palette.error) }
        } else {
            rows.append(.check(label: "sum", text: "\(preview.total) % ✓", style: Palette.info))
        }
        if let unallocated = preview.unallocated {
            let served = experiment.map { unallocated.buckets > 0 ? " (served `\($0.control)`, not enrolled)" : "" } ?? ""
            rows.append(.check(label: "unallocated", text: "\(unallocated) %" + served, style: .plain))
        } else {
            rows.append(.check(label: "unallocated", text: "—", style: Palette.dim))
        }
        if let plan = preview.plan {
            rows.append(.check(label: "moves", text: RampPreview.movedText(plan), style: .bold))
        } else {
            rows.append(.check(label: "moves", text: "— fix the weights to see who moves", style: Palette.dim))
        }
        return rows
    }
}
