import ExperimentResults

/// `results` for people: a header, the sample-ratio verdict, a table per metric and every warning in words,
/// laid out from the report's presentation.
enum ResultsText {
    private typealias Label = ResultsPresentation.Label

    static func lines(_ report: ResultsReport) -> [String] {
        let shown = ResultsPresentation(report)
        var lines = ["\(SafeOutput.text(shown.experiment)) · \(shown.engine) · \(shown.window)"]
        if let headline = shown.headline { lines.append(Label.verdict + SafeOutput.text(headline)) }
        if let correction = shown.correction { lines.append("correction: " + correction) }
        lines.append("subjects: " + (shown.subjects + [shown.lastExposure].compactMap { $0 }).joined(separator: " · "))
        let split = SafeOutput.text(shown.split)
        lines.append(Label.sampleRatio + shown.sampleRatio + (split.isEmpty ? "" : " — " + Label.observedOfExpected + split))
        if let reason = shown.noMetrics {
            lines += ["", Label.noMetrics + reason]
        }
        for metric in shown.metrics {
            lines += [""] + table(metric, verdicts: shown.headline != nil)
        }
        if !shown.warnings.isEmpty {
            lines += ["", "warnings:"] + shown.warnings.map { "  ! " + SafeOutput.text($0.text) }
        }
        return lines
    }

    /// A metric's title over its table; with `verdicts`, a VERDICT column last.
    /// With CUPED, an UNADJUSTED column follows the adjusted means.
    static func table(_ metric: ResultsPresentation.Metric, verdicts: Bool = false) -> [String] {
        let cuped = metric.cuped != nil
        let header = Array(metric.columns.prefix(4)) + (cuped ? ["UNADJUSTED"] : []) + metric.columns.dropFirst(4) + (verdicts ? ["VERDICT"] : [])
        let rows = metric.rows.map { row in
            [row.variant + (row.isControl ? " (control)" : ""), row.subjects, row.total, row.mean] + (cuped ? [row.unadjusted ?? ""] : [])
                + [row.lift, row.interval, row.evidence] + (verdicts ? [row.verdict] : [])
        }
        return [SafeOutput.text(metric.title)] + SafeOutput.table(header, rows)
    }
}
