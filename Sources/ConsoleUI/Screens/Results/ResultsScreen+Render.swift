import ExperimentResults

extension ResultsScreen {
    /// The widest variant-name column.
    private static let nameWidth = 20

    /// The variant-name column in `width`: narrower than `nameWidth` so the widest interval (20 columns) is never cut.
    private static func nameColumn(_ width: Int) -> Int { min(nameWidth, max(8, width - 61)) }

    /// Draws the header, the banners, the metric's table and its interval chart; or the loading progress.
    static func render(key: String, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let x = area.x + 1, width = area.width - 2
        guard let results = app.results, results.experimentKey == key else {
            buffer.write("no results loaded; press Enter to read the logs", x: x, y: area.y, maxWidth: width, style: Palette.dim)
            return
        }
        switch results.phase {
        case .loading(let rows, let elapsed):
            let seconds = (elapsed * 10).rounded() / 10
            buffer.write("reading the event logs…", x: x, y: area.y + 1, maxWidth: width, style: .bold)
            buffer.write("\(ResultsFormat.count(rows)) rows read · \(seconds) s", x: x, y: area.y + 2, maxWidth: width)
            buffer.write("Esc cancels; the rest of the console keeps working", x: x, y: area.y + 4, maxWidth: width, style: Palette.dim)
        case .cancelled(let rows):
            buffer.write("loading cancelled after \(ResultsFormat.count(rows)) rows", x: x, y: area.y + 1, maxWidth: width, style: .bold)
            buffer.write("Enter reads the logs again · Esc goes back", x: x, y: area.y + 3, maxWidth: width, style: Palette.dim)
        case .failed(let message):
            buffer.write("cannot show results", x: x, y: area.y + 1, maxWidth: width, style: Palette.error)
            var y = area.y + 2
            for line in WordWrap.lines(SafeText.escaped(message), width: width, maxLines: 4) {
                buffer.write(line, x: x, y: y, maxWidth: width)
                y += 1
            }
            buffer.write("Log events as README › Results says, then Enter reads the logs again · Esc goes back", x: x, y: y + 1, maxWidth: width, style: Palette.dim)
        case .loaded(let report):
            renderReport(report, metric: results.metric, x: x, y: area.y, width: width, maxY: area.maxY, into: &buffer)
        }
    }

    private static func renderReport(_ report: ResultsReport, metric index: Int, x: Int, y top: Int, width: Int, maxY: Int, into buffer: inout ScreenBuffer) {
        var y = top
        let shown = ResultsPresentation(report)
        let used = buffer.write(SafeText.escaped(shown.experiment), x: x, y: y, maxWidth: width, style: .bold)
        if used + DisplayWidth.of(" · \(shown.engine) · " + shown.window) <= width {
            buffer.write(" · \(shown.engine) · " + shown.window, x: x + used, y: y, maxWidth: width - used, style: Palette.dim)
        } else {
            // Too narrow for one line: the window, whole, on a line of its own.
            buffer.write(" · " + shown.engine, x: x + used, y: y, maxWidth: width - used, style: Palette.dim)
            y += 1
            buffer.write(shown.window, x: x, y: y, maxWidth: width, style: Palette.dim)
        }
        y += 1
        // As many parts as fit on a line, each whole.
        for line in packed(shown.subjects + [shown.lastExposure].compactMap { $0 }, width: width) {
            buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.dim)
            y += 1
        }
        for (text, style) in decisionLines(shown, report) {
            // Wrapped, never cut: a failing guardrail comes last in the verdict.
            for (offset, line) in WordWrap.lines(SafeText.escaped(text), width: max(1, width - 2), maxLines: 3).enumerated() {
                buffer.write((offset == 0 ? "" : "  ") + line, x: x, y: y, maxWidth: width, style: style)
                y += 1
            }
        }
        for banner in shown.warnings where banner.isBanner {
            // Wrapped, never cut: its last words say what to do.
            for (offset, line) in WordWrap.lines(SafeText.escaped(banner.text), width: max(1, width - 4), maxLines: 3).enumerated() {
                buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: Palette.banner)
                buffer.write((offset == 0 ? " ⚠ " : "   ") + line, x: x, y: y, maxWidth: width, style: Palette.banner)
                y += 1
            }
        }
        // A log's half-written last line, left out (a logger is appending): said, not alarming.
        for note in shown.warnings where note.kind == .readNote {
            for line in WordWrap.lines(SafeText.escaped(note.text), width: width, maxLines: 3) {
                buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.dim)
                y += 1
            }
        }
        // On a mismatch the banner says it: every variant's share is the evidence, wrapped, never cut.
        let ratio = report.sampleRatio.status == .mismatch ? ResultsPresentation.Label.observedOfExpected + shown.split
            : ResultsPresentation.Label.sampleRatio + shown.sampleRatio
        for line in WordWrap.lines(SafeText.escaped(ratio), width: width, maxLines: 3) {
            buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.dim)
            y += 1
        }
        y += 1
        if let reason = shown.noMetrics {
            buffer.write(ResultsPresentation.Label.noMetrics + reason, x: x, y: y, maxWidth: width, style: Palette.dim)
            return
        }
        guard !report.metrics.isEmpty, !shown.metrics.isEmpty else { return }
        let selected = min(index, report.metrics.count - 1)
        let metric = report.metrics[selected]
        y = renderTabs(report.metrics, selected: metric.name, x: x, y: y, width: width, into: &buffer)
        y = renderTable(shown.metrics[selected], x: x, y: y + 1, width: width, into: &buffer)
        guard y + 2 + metric.variants.count <= maxY else { return }
        renderChart(metric, shown.metrics[selected], engine: report.engine, x: x, y: y + 1, width: width, into: &buffer)
    }

    /// With a goal or guardrails named: the verdict line, every guardrail's verdict (the table shows
    /// one metric at a time), then (with a goal) the days still needed for 80 % power at a 5 % effect.
    static func decisionLines(_ shown: ResultsPresentation, _ report: ResultsReport) -> [(String, CellStyle)] {
        guard let headline = shown.headline else { return [] }
        return [(ResultsPresentation.Label.verdict + headline, .bold)] + (DecisionText.guardrailsLine(report).map { [($0, CellStyle.plain)] } ?? [])
            + (shown.plan.map { [("plan: " + $0, Palette.dim)] } ?? [])
    }

    private static func renderTabs(_ metrics: [ResultsReport.MetricResult], selected: String, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) -> Int {
        var column = x + buffer.write("METRIC ", x: x, y: y, style: Palette.header) + 1
        for metric in metrics where column < x + width {
            let isSelected = metric.name == selected
            let text = " \(SafeText.escaped(metric.name)) "
            column += buffer.write(text, x: column, y: y, maxWidth: x + width - column, style: isSelected ? Palette.selected : Palette.dim) + 1
        }
        if metrics.count > 1, column + 10 < x + width { buffer.write("Tab: next", x: column + 1, y: y, style: Palette.dim) }
        return y + 1
    }

    private static func renderTable(_ metric: ResultsPresentation.Metric, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) -> Int {
        let sizes = [nameColumn(width), 9, 10, 9, 8, 20]
        let columns = Array(zip(metric.columns, sizes))
        var column = x
        for (offset, (title, size)) in columns.enumerated() {
            let text = offset == 0 || offset == 5 ? title : pad(title, size)
            buffer.write(text, x: column, y: y, maxWidth: size, style: Palette.header)
            column += size + 1
        }
        var row = y + 1
        for (index, variant) in metric.rows.enumerated() {
            let label = "\(Palette.variantGlyph(index)) \(variant.variant)" + (variant.isControl ? " ◆" : "")
            let cells = [SafeText.escaped(label), pad(variant.subjects, 9), pad(variant.total, 10), pad(variant.mean, 9),
                         pad(variant.isControl ? "control" : variant.lift, 8), SafeText.escaped(variant.interval)]
            column = x
            for (offset, (_, size)) in columns.enumerated() {
                let fits = offset == columns.count - 1 ? max(0, x + width - column) : size
                buffer.write(cells[offset], x: column, y: row, maxWidth: fits, style: offset == 0 ? Palette.variantStyle(index) : .plain)
                column += size + 1
            }
            row += 1
        }
        return row
    }

    private static func renderChart(_ metric: ResultsReport.MetricResult, _ shown: ResultsPresentation.Metric, engine: StatsEngine,
                                    x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let name = nameColumn(width)
        let right = 19
        let chartWidth = max(10, width - name - right - 2)
        let chart = IntervalChart(metric.variants.map(\.interval), width: chartWidth)
        let control = metric.variants.first { $0.isControl }?.name ?? "control"
        buffer.write("LIFT VS \(SafeText.escaped(control)), 95 % INTERVAL", x: x + name + 1, y: y, maxWidth: chartWidth, style: Palette.header)
        buffer.write(shown.columns.last ?? "", x: x + name + 1 + chartWidth + 2, y: y, maxWidth: right, style: Palette.header)
        var row = y + 1
        for (index, (variant, cells)) in zip(metric.variants, shown.rows).enumerated() {
            buffer.write(SafeText.escaped("\(Palette.variantGlyph(index)) \(variant.name)"), x: x, y: row, maxWidth: name, style: Palette.variantStyle(index))
            chart.render(interval: variant.interval, lift: variant.lift, isControl: variant.isControl, x: x + name + 1, y: row, into: &buffer)
            let rightX = x + name + 1 + chartWidth + 2
            if engine.isBayesian, let chance = variant.chanceToWin {
                ChanceBar.render(chance, x: rightX, y: row, width: 10, into: &buffer)
            } else if !variant.isControl {
                // Bold where the test is significant (p below α), the verdict's rule.
                let significant = MetricVerdict.effect(lift: variant.lift, chanceToWin: nil, pValue: variant.pValue,
                                                       lowerIsBetter: metric.direction == .decrease) != .inconclusive
                buffer.write(cells.evidence, x: rightX, y: row, style: significant ? .bold : .plain)
            }
            row += 1
        }
        chart.renderAxis(x: x + name + 1, y: row, into: &buffer)
    }

    /// `parts` joined with ` · ` into lines of at most `width` columns, a line broken only between parts.
    static func packed(_ parts: [String], width: Int) -> [String] {
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, DisplayWidth.of(last + " · " + part) <= width {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines.append(part)
            }
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let count = DisplayWidth.of(text)
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }
}
