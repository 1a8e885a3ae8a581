import ExperimentCore
import ExperimentStore

/// What an owner should look at before resolving: status, weights, whitelist per variant, recent history.
enum ResolveEvidence {
    /// A row of the evidence column.
    enum Row {
        case blank, title, status, lastChange, bar, legend, whitelistTitle, variant(Int), historyTitle
        case history(HistoryEntry)
        case stale(String)
    }

    /// How many history entries the evidence lists at most.
    static let historyLimit = 8

    /// Every row in order; spacing, the last change and the oldest history give way on short screens.
    static func rows(_ form: ResolveForm, _ experiment: Experiment, history: [HistoryEntry], width: Int) -> RowLayout<Row> {
        var layout = RowLayout<Row>()
        layout.add(.blank, keep: .spacing)
        layout.add([.title, .status])
        if experiment.revision != form.revision {
            let text = StaleViewWarning.text(experiment, openedAt: form.revision, action: "resolving", reopenKey: "R")
            layout.add(WordWrap.lines(SafeText.escaped(text), width: width, maxLines: 3).map(Row.stale))
        }
        layout.add(.lastChange, keep: .detail)
        layout.add(.blank, keep: .spacing)
        layout.add([.bar, .legend])
        layout.add(.blank, keep: .spacing)
        layout.add(.whitelistTitle)
        layout.add(form.variants.indices.map(Row.variant))
        let entries = Array(history.reversed().lazy.filter { $0.experiment == experiment.key }.prefix(historyLimit))
        guard !entries.isEmpty else { return layout }
        layout.add(.blank, keep: .spacing)
        layout.add(.historyTitle, keep: .detail)
        layout.add(entries.map(Row.history), keep: .detail)
        return layout
    }

    static func render(_ rows: [Row], _ form: ResolveForm, _ experiment: Experiment, into buffer: inout ScreenBuffer, area: Rect) {
        let x = area.x, width = area.width
        for (offset, row) in rows.enumerated() {
            let y = area.y + offset
            switch row {
            case .blank:
                break
            case .title:
                buffer.write("EVIDENCE", x: x, y: y, style: Palette.header)
            case .status:
                let used = buffer.write(experiment.status.rawValue, x: x, y: y, style: Palette.status(experiment.status))
                buffer.write(" · \(experiment.type.rawValue)-level · revision \(experiment.revision)", x: x + used, y: y, maxWidth: width - used, style: Palette.dim)
            case .lastChange:
                let text = "last change \(TimeText.short(experiment.updatedAt)) by \(experiment.updatedBy)"
                buffer.write(SafeText.escaped(text), x: x, y: y, maxWidth: width, style: Palette.dim)
            case .bar:
                WeightBar.render(experiment.variants.map(\.weight), x: x, y: y, width: width, into: &buffer)
            case .legend:
                var column = x
                for (text, style) in WeightBar.legend(experiment.variants.map { (name: $0.name, weight: $0.weight) }) where column < x + width {
                    column += buffer.write(SafeText.escaped(text), x: column, y: y, maxWidth: x + width - column, style: style) + 2
                }
            case .whitelistTitle:
                let total = form.whitelistCounts.reduce(0, +)
                buffer.write("WHITELIST (\(total) " + (total == 1 ? "subject)" : "subjects)"), x: x, y: y, maxWidth: width, style: Palette.header)
            case .variant(let index):
                let name = form.variants[index]
                let count = form.whitelistCounts[index]
                let label = "\(Palette.variantGlyph(index)) \(name)" + (name == experiment.control ? " (control)" : "")
                buffer.write(SafeText.escaped(label), x: x, y: y, maxWidth: width - 14, style: Palette.variantStyle(index))
                buffer.write("\(count) " + (count == 1 ? "subject" : "subjects"), x: x + width - 12, y: y, maxWidth: 12)
            case .historyTitle:
                buffer.write("RECENT CHANGES", x: x, y: y, style: Palette.header)
            case .stale(let line):
                buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.error)
            case .history(let entry):
                buffer.write(HistoryLine.text(entry, showExperiment: false), x: x, y: y, maxWidth: width, style: Palette.dim)
            }
        }
    }
}
