import ExperimentCore

/// One experiment: its facts, variants with weights and ranges, payloads, and recent history.
enum DetailView {
    static func render(_ state: AppState, key: String, into buffer: inout ScreenBuffer, area: Rect) {
        guard let experiment = state.snapshot.experiments[key] else { return }
        let x = area.x + 1, width = area.width - 2
        var y = area.y
        let used = buffer.write(SafeText.escaped(experiment.key), x: x, y: y, maxWidth: width, style: .bold)
        let statusX = x + used + 2
        let statusUsed = buffer.write(experiment.status.rawValue, x: statusX, y: y, style: Palette.status(experiment.status))
        buffer.write("\(experiment.type.rawValue)-level · revision \(experiment.revision)", x: statusX + statusUsed + 2, y: y, style: Palette.dim)
        y += 1
        buffer.write(SafeText.escaped(experiment.description), x: x, y: y, maxWidth: width)
        y += 2
        let facts: [(String, String)] = [
            ("salt", experiment.salt), ("control", experiment.control),
            ("winner", experiment.winner.map { "\($0) — served to everyone, forever" } ?? "—"),
            ("metrics", experiment.metrics.summary ?? "—"),
            ("updated", "\(TimeLabel.utc(experiment.updatedAt)) by \(experiment.updatedBy)"),
        ]
        for (label, value) in facts {
            buffer.write(label, x: x, y: y, style: Palette.dim)
            buffer.write(SafeText.escaped(value), x: x + 10, y: y, maxWidth: width - 10)
            y += 1
        }
        y += 1
        WeightBar.render(experiment.variants.map(\.weight), x: x, y: y, width: min(width, 60), into: &buffer)
        y += 2
        y = renderVariants(experiment, x: x, y: y, width: width, into: &buffer)
        y += 1
        let plan = PlanLines.lines(experiment, history: state.snapshot.history)
        for (index, line) in plan.enumerated() where y < area.maxY {
            buffer.write(SafeText.escaped(line), x: x, y: y, maxWidth: width, style: index == 0 ? Palette.header : .plain)
            y += 1
        }
        if !plan.isEmpty { y += 1 }
        let history = state.snapshot.history.filter { $0.experiment == key }.suffix(max(0, area.maxY - y - 1)).reversed()
        guard !history.isEmpty, y < area.maxY - 1 else { return }
        buffer.write("RECENT CHANGES", x: x, y: y, style: Palette.header)
        y += 1
        for entry in history where y < area.maxY {
            buffer.write(HistoryLine.text(entry, showExperiment: false), x: x, y: y, maxWidth: width, style: Palette.dim)
            y += 1
        }
    }

    private static func renderVariants(_ experiment: Experiment, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) -> Int {
        var y = y
        let counts = Dictionary(grouping: experiment.whitelist.values, by: \.variant).mapValues(\.count)
        let columns = [("VARIANT", 26), ("WEIGHT", 8), ("BUCKETS", 26), ("WL", 5), ("PAYLOAD", max(8, width - 68))]
        var column = x
        for (title, size) in columns {
            buffer.write(title, x: column, y: y, maxWidth: size, style: Palette.header)
            column += size + 1
        }
        y += 1
        for (index, variant) in experiment.variants.enumerated() {
            column = x
            let ranges = variant.ranges.isEmpty ? "—" : variant.ranges.map { "\($0.start)–\($0.end)" }.joined(separator: " ")
            let name = "\(Palette.variantGlyph(index)) \(variant.name)" + (variant.name == experiment.control ? " (control)" : "")
            let cells = [name, "\(variant.weight) %", ranges, String(counts[variant.name] ?? 0), variant.payload?.compactText ?? "—"]
            for (offset, (_, size)) in columns.enumerated() {
                buffer.write(SafeText.escaped(cells[offset]), x: column, y: y, maxWidth: size,
                             style: offset == 0 ? Palette.variantStyle(index) : .plain)
                column += size + 1
            }
            y += 1
        }
        if experiment.unallocated.buckets > 0 {
            buffer.write("\(Palette.unallocatedGlyph) unallocated \(experiment.unallocated) % (served `\(experiment.control)`, reason not_enrolled)", x: x, y: y, maxWidth: width, style: Palette.dim)
            y += 1
        }
        return y
    }
}
