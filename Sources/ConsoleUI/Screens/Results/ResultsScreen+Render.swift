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
        let analysis = report.analysis
        let engine = report.engine.isBayesian ? "Bayesian" : "frequentist"
        let used = buffer.write(SafeText.escaped(analysis.experiment), x: x, y: y, maxWidth: width, style: .bold)
        let window = "\(ResultsFormat.time(analysis.window.from)) – \(ResultsFormat.time(analysis.window.to))"
        if used + DisplayWidth.of(" · \(engine) · " + window) <= width {
            buffer.write(" · \(engine) · " + window, x: x + used, y: y, maxWidth: width - used, style: Palette.dim)
        } else {
            // Too narrow for one line: the window, whole, on a line of its own.
            buffer.write(" · " + engine, x: x + used, y: y, maxWidth: width - used, style: Palette.dim)
            y += 1
            buffer.write(window, x: x, y: y, maxWidth: width, style: Palette.dim)
        }
        y += 1
        let subjects = subjectsLine(analysis.subjects)
        if let exposure = ResultsFormat.lastExposure(analysis), DisplayWidth.of(subjects + " · " + exposure) <= width {
            buffer.write(subjects + " · " + exposure, x: x, y: y, maxWidth: width, style: Palette.dim)
        } else {
            buffer.write(subjects, x: x, y: y, maxWidth: width, style: Palette.dim)
            // Too narrow for one line: the last exposure, whole, on a line of its own.
            if let exposure = ResultsFormat.lastExposure(analysis) {
                y += 1
                buffer.write(exposure, x: x, y: y, maxWidth: width, style: Palette.dim)
            }
        }
        y += 1
        for (text, style) in decisionLines(report) {
            // Wrapped, never cut: a failing guardrail comes last in the verdict.
            for (offset, line) in WordWrap.lines(SafeText.escaped(text), width: max(1, width - 2), maxLines: 3).enumerated() {
                buffer.write((offset == 0 ? "" : "  ") + line, x: x, y: y, maxWidth: width, style: style)
                y += 1
            }
        }
        for banner in banners(report) {
            // Wrapped, never cut: its last words say what to do.
            for (offset, line) in WordWrap.lines(SafeText.escaped(banner), width: max(1, width - 4), maxLines: 3).enumerated() {
                buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: Palette.banner)
                buffer.write((offset == 0 ? " ⚠ " : "   ") + line, x: x, y: y, maxWidth: width, style: Palette.banner)
                y += 1
            }
        }
        // A log's half-written last line, left out (a logger is appending): said, not alarming.
        for note in analysis.readNotes {
            for line in WordWrap.lines(SafeText.escaped(note), width: width, maxLines: 3) {
                buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.dim)
                y += 1
            }
        }
        if report.sampleRatio.status != .mismatch {
            buffer.write(sampleRatioLine(report.sampleRatio), x: x, y: y, maxWidth: width, style: Palette.dim)
            y += 1
        } else {
            // Wrapped, never cut: every variant's share is the evidence of the mismatch.
            let split = SafeText.escaped("observed of expected: " + DecisionText.observedOfExpected(report.sampleRatio))
            for line in WordWrap.lines(split, width: width, maxLines: 3) {
                buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.dim)
                y += 1
            }
        }
        y += 1
        guard !report.metrics.isEmpty else {
            buffer.write("no metrics: " + DecisionText.noMetricsReason(analysis), x: x, y: y, maxWidth: width, style: Palette.dim)
            return
        }
        let metric = report.metrics[min(index, report.metrics.count - 1)]
        y = renderTabs(report.metrics, selected: metric.name, x: x, y: y, width: width, into: &buffer)
        y = renderTable(metric, x: x, y: y + 1, width: width, into: &buffer)
        guard y + 2 + metric.variants.count <= maxY else { return }
        renderChart(metric, engine: report.engine, x: x, y: y + 1, width: width, into: &buffer)
    }

    /// With a goal or guardrails named: the verdict line, then (with a goal) the days still needed for 80 % power at a 5 % effect.
    static func decisionLines(_ report: ResultsReport) -> [(String, CellStyle)] {
        guard !report.named.isEmpty else { return [] }
        var lines: [(String, CellStyle)] = [("verdict: " + DecisionText.headline(report), .bold)]
        if let goal = report.named.goal, let plan = PowerPlan(report.analysis, metric: goal.metric) {
            lines.append(("plan: " + DecisionText.planLine(plan), Palette.dim))
        }
        return lines
    }

    /// The words above the numbers that must not be missed: a sample-ratio mismatch, many subjects in several variants.
    static func banners(_ report: ResultsReport) -> [String] {
        var banners: [String] = []
        if report.sampleRatio.status == .mismatch {
            let p = report.sampleRatio.pValue.map { $0 < 0.0001 ? "p < 0.0001" : "p = \(ResultsFormat.pValue($0))" } ?? ""
            banners.append("SAMPLE-RATIO MISMATCH (\(p)): the split is not what the weights say — find why before trusting these numbers")
        }
        let counts = report.analysis.subjects
        if let multiple = counts.multipleVariants, let exposed = counts.exposed, exposed > 0, multiple >= 10, Double(multiple) >= 0.01 * Double(exposed) {
            banners.append("MULTIPLE EXPOSURES: \(ResultsFormat.count(multiple)) subjects saw more than one variant and were removed")
        }
        return banners
    }

    static func subjectsLine(_ counts: SubjectCounts) -> String {
        var parts: [String] = []
        if let exposed = counts.exposed { parts.append("\(ResultsFormat.count(exposed)) exposed") }
        parts.append("\(ResultsFormat.count(counts.analysed)) analysed")
        if let multiple = counts.multipleVariants, multiple > 0 { parts.append("\(ResultsFormat.count(multiple)) in several variants") }
        if let whitelisted = counts.whitelisted, whitelisted > 0 { parts.append("\(ResultsFormat.count(whitelisted)) whitelisted") }
        if let unknown = counts.unknownVariantRows, unknown > 0 { parts.append("\(ResultsFormat.count(unknown)) rows of unknown variants") }
        return parts.joined(separator: " · ")
    }

    static func sampleRatioLine(_ verdict: SampleRatioVerdict) -> String {
        let p = verdict.pValue.map { $0 < 0.0001 ? ", p < 0.0001" : ", p = \(ResultsFormat.pValue($0))" } ?? ""
        return switch verdict.status {
        case .ok: "sample ratio ok\(p)"
        case .mismatch: "sample-ratio mismatch\(p)"
        case .notEnoughTraffic: "sample ratio: not enough traffic to check yet"
        case .notApplicable: "sample ratio: not applicable (the weights changed in the window, or one variant has weight)"
        }
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

    private static func renderTable(_ metric: ResultsReport.MetricResult, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) -> Int {
        let proportion = metric.type == .proportion
        let name = nameColumn(width)
        let columns: [(String, Int)] = [("VARIANT", name), ("SUBJECTS", 9), (proportion ? "CONVERTED" : "TOTAL", 10),
                                         (proportion ? "RATE" : "MEAN", 9), ("LIFT", 8), ("95 % INTERVAL", 20)]
        var column = x
        for (offset, (title, size)) in columns.enumerated() {
            let text = offset == 0 || offset == 5 ? title : pad(title, size)
            buffer.write(text, x: column, y: y, maxWidth: size, style: Palette.header)
            column += size + 1
        }
        var row = y + 1
        for (index, variant) in metric.variants.enumerated() {
            let label = "\(Palette.variantGlyph(index)) \(variant.name)" + (variant.isControl ? " ◆" : "")
            let mean = variant.mean.map { proportion ? ResultsFormat.percent($0) : ResultsFormat.number($0) } ?? "—"
            var cells = [SafeText.escaped(label), pad(ResultsFormat.count(variant.totals.subjects), 9),
                         pad(ResultsFormat.number(variant.totals.sum), 10), pad(mean, 9)]
            if variant.isControl {
                cells += [pad("control", 8), ""]
            } else if let lift = variant.lift {
                cells += [pad(ResultsFormat.lift(lift), 8), variant.interval.map(ResultsFormat.interval) ?? "—"]
            } else {
                cells += [pad("—", 8), variant.note ?? "no estimate"]
            }
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

    private static func renderChart(_ metric: ResultsReport.MetricResult, engine: ResultsEngine, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let name = nameColumn(width)
        let right = 19
        let chartWidth = max(10, width - name - right - 2)
        let chart = IntervalChart(metric.variants.map(\.interval), width: chartWidth)
        let control = metric.variants.first { $0.isControl }?.name ?? "control"
        buffer.write("LIFT VS \(SafeText.escaped(control)), 95 % INTERVAL", x: x + name + 1, y: y, maxWidth: chartWidth, style: Palette.header)
        buffer.write(engine.isBayesian ? "CHANCE TO WIN" : "P-VALUE", x: x + name + 1 + chartWidth + 2, y: y, maxWidth: right, style: Palette.header)
        var row = y + 1
        for (index, variant) in metric.variants.enumerated() {
            buffer.write(SafeText.escaped("\(Palette.variantGlyph(index)) \(variant.name)"), x: x, y: row, maxWidth: name, style: Palette.variantStyle(index))
            chart.render(interval: variant.interval, lift: variant.lift, isControl: variant.isControl, x: x + name + 1, y: row, into: &buffer)
            let rightX = x + name + 1 + chartWidth + 2
            if !variant.isControl {
                if engine.isBayesian, let chance = variant.chanceToWin {
                    ChanceBar.render(chance, x: rightX, y: row, width: 10, into: &buffer)
                } else if let p = variant.pValue {
                    buffer.write(p < 0.0001 ? "< 0.0001" : ResultsFormat.pValue(p), x: rightX, y: row, style: p < 0.05 ? .bold : .plain)
                } else {
                    buffer.write("no estimate", x: rightX, y: row, style: Palette.dim)
                }
            }
            row += 1
        }
        chart.renderAxis(x: x + name + 1, y: row, into: &buffer)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let count = DisplayWidth.of(text)
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }
}
