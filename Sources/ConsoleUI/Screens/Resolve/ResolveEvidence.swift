import ExperimentCore
import ExperimentResults

/// What an owner should look at before resolving: status, weights, the results per variant, whitelist, recent history.
enum ResolveEvidence {
    /// A row of the evidence column.
    enum Row {
        case blank, title, status, lastChange, bar, legend, whitelistTitle, variant(Int), historyTitle
        case history(HistoryEntry)
        case resultsTitle
        case resultsVariant(Int)
        case resultsNote(String, isWarning: Bool)
    }

    /// How many history entries the evidence lists at most.
    static let historyLimit = 8

    /// Every row in order; spacing, the last change and the oldest history give way on short screens.
    static func rows(_ form: ResolveForm, _ experiment: Experiment, history: [HistoryEntry], results: ResultsState?, width: Int) -> RowLayout<Row> {
        var layout = RowLayout<Row>()
        layout.add(.blank, keep: .spacing)
        layout.add([.title, .status])
        layout.add(.lastChange, keep: .detail)
        layout.add(.blank, keep: .spacing)
        layout.add([.bar, .legend])
        layout.add(.blank, keep: .spacing)
        layout.add(resultsRows(results, experiment, width: width))
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

    /// The results' verdict per variant for the metric shown on the results screen (the first by default).
    private static func resultsRows(_ results: ResultsState?, _ experiment: Experiment, width: Int) -> [Row] {
        guard let results, results.experimentKey == experiment.key else { return [.resultsTitle, .resultsNote("no results loaded (e reads the logs)", isWarning: false)] }
        switch results.phase {
        case .loading(let rows, _):
            return [.resultsTitle, .resultsNote("reading the logs… \(ResultsFormat.count(rows)) rows", isWarning: false)]
        case .cancelled:
            return [.resultsTitle, .resultsNote("loading cancelled (e reads the logs)", isWarning: false)]
        case .failed(let message):
            return [.resultsTitle] + WordWrap.lines(SafeText.escaped(message), width: width, maxLines: 2).map { .resultsNote($0, isWarning: true) }
        case .loaded(let report):
            var rows: [Row] = [.resultsTitle]
            if report.sampleRatio.status == .mismatch {
                rows.append(.resultsNote("⚠ sample-ratio mismatch: do not trust these numbers", isWarning: true))
            }
            for failure in DecisionText.guardrailFailures(report, variant: nil) + DecisionText.guardrailsWithoutData(report, variant: nil) {
                rows += WordWrap.lines("⚠ " + SafeText.escaped(failure), width: width, maxLines: 2).map { .resultsNote($0, isWarning: true) }
            }
            guard !report.metrics.allSatisfy(\.isMissing) else { return rows + [.resultsNote("no conversions for these subjects yet", isWarning: false)] }
            return rows + report.metrics[min(results.metric, report.metrics.count - 1)].variants.indices.map(Row.resultsVariant)
        }
    }

    /// One variant's verdict, from the presenter's cells: the control's rate or mean; a treatment's lift and chance to win (or p-value).
    private static func verdict(_ variant: ResultsReport.VariantResult, _ cells: ResultsPresentation.Row, engine: StatsEngine) -> String {
        if variant.isControl { return "\(cells.mean) (control)" }
        guard variant.lift != nil else { return "\(cells.mean) · no estimate" }
        if engine.isBayesian, variant.chanceToWin != nil { return "\(cells.lift) · \(cells.evidence) to win" }
        return "\(cells.lift) · p \(cells.evidence)"
    }

    static func render(_ rows: [Row], _ form: ResolveForm, _ experiment: Experiment, results: ResultsState?, into buffer: inout ScreenBuffer, area: Rect) {
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
                let text = "last change \(TimeLabel.utc(experiment.updatedAt)) by \(experiment.updatedBy)"
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
            case .history(let entry):
                buffer.write(HistoryLine.text(entry, showExperiment: false), x: x, y: y, maxWidth: width, style: Palette.dim)
            case .resultsTitle:
                let metric = results?.report.flatMap { $0.metrics.isEmpty ? nil : $0.metrics[min(results?.metric ?? 0, $0.metrics.count - 1)].name }
                buffer.write("RESULTS" + (metric.map { " · \(SafeText.escaped($0))" } ?? ""), x: x, y: y, maxWidth: width, style: Palette.header)
            case .resultsNote(let text, let isWarning):
                buffer.write(text, x: x, y: y, maxWidth: width, style: isWarning ? Palette.error : Palette.dim)
            case .resultsVariant(let index):
                guard let report = results?.report, !report.metrics.isEmpty else { break }
                let metric = report.metrics[min(results?.metric ?? 0, report.metrics.count - 1)]
                guard metric.variants.indices.contains(index) else { break }
                let variant = metric.variants[index]
                let label = "\(Palette.variantGlyph(index)) \(variant.name)"
                let text = verdict(variant, ResultsPresentation.metric(metric, report.engine).rows[index], engine: report.engine)
                let textWidth = DisplayWidth.of(text)
                buffer.write(SafeText.escaped(label), x: x, y: y, maxWidth: max(1, width - textWidth - 1), style: Palette.variantStyle(index))
                let good = isBetter(lift: variant.lift, chanceToWin: variant.chanceToWin, pValue: variant.pValue, direction: metric.direction)
                buffer.write(text, x: x + max(0, width - textWidth), y: y, maxWidth: width, style: good ? CellStyle.fg(.green).bolded : .plain)
            }
        }
    }

    /// Whether a variant's row is green: it is better on the metric shown, by the verdict's rule
    /// (`MetricVerdict.effect`, the metric's direction included).
    static func isBetter(lift: Double?, chanceToWin: Double?, pValue: Double?, direction: MetricDirection) -> Bool {
        MetricVerdict.effect(lift: lift, chanceToWin: chanceToWin, pValue: pValue, lowerIsBetter: direction == .decrease) == .better
    }
}
