import ExperimentResults

/// `results` for people: a header, the sample-ratio verdict, a table per metric and every warning in words.
enum ResultsText {
    static func lines(_ report: ResultsReport) -> [String] {
        let analysis = report.analysis
        let engine = switch report.engine {
        case .bayesian: "Bayesian"
        case .frequentist(let sequential): sequential ? "frequentist, sequential" : "frequentist"
        }
        var lines = ["\(SafeOutput.text(analysis.experiment)) · \(engine) · \(ResultsFormat.timeToSecond(analysis.window.from)) – \(ResultsFormat.timeToSecond(analysis.window.to))"]
        if !report.named.isEmpty { lines.append("verdict: " + SafeOutput.text(DecisionText.headline(report))) }
        lines.append("subjects: " + subjectsLine(analysis.subjects) + (ResultsFormat.lastExposure(analysis).map { " · " + $0 } ?? ""))
        lines.append("sample ratio: " + sampleRatioLine(report.sampleRatio))
        if report.metrics.isEmpty {
            lines += ["", "no metrics: " + DecisionText.noMetricsReason(analysis)]
        }
        for metric in report.metrics {
            lines += [""] + table(metric, report.engine, verdicts: !report.named.isEmpty)
        }
        if !report.warnings.isEmpty {
            lines += ["", "warnings:"] + report.warnings.map { "  ! " + SafeOutput.text($0) }
        }
        return lines
    }

    static func subjectsLine(_ counts: SubjectCounts) -> String {
        var parts: [String] = []
        if let exposed = counts.exposed { parts.append("\(ResultsFormat.count(exposed)) exposed") }
        parts.append("\(ResultsFormat.count(counts.analysed)) analysed")
        if let multiple = counts.multipleVariants { parts.append("\(ResultsFormat.count(multiple)) in several variants (removed)") }
        if let whitelisted = counts.whitelisted { parts.append("\(ResultsFormat.count(whitelisted)) whitelisted (removed)") }
        if let unknown = counts.unknownVariantRows, unknown > 0 { parts.append("\(ResultsFormat.count(unknown)) rows for unknown variants") }
        return parts.joined(separator: " · ")
    }

    static func sampleRatioLine(_ verdict: SampleRatioVerdict) -> String {
        let split = SafeOutput.text(DecisionText.observedOfExpected(verdict))
        let p = verdict.pValue.map { " (\(ResultsFormat.pClause($0)))" } ?? ""
        let words = switch verdict.status {
        case .ok: "ok\(p)"
        case .mismatch: "MISMATCH\(p)"
        case .notEnoughTraffic: "not enough traffic to check\(p)"
        case .notApplicable: "not applicable: " + (verdict.expected.count < 2
            ? "fewer than two variants have a weight, so there is no split to compare"
            : "the weights changed inside the window")
        }
        return split.isEmpty ? words : "\(words) — observed of expected: \(split)"
    }

    static func table(_ metric: ResultsReport.MetricResult, _ engine: ResultsEngine, verdicts: Bool = false) -> [String] {
        let proportion = metric.type == .proportion
        let chanceTitle = metric.direction == .decrease ? "CHANCE LOWER" : "CHANCE TO WIN"
        let header = ["VARIANT", "SUBJECTS", proportion ? "CONVERTED" : "TOTAL", proportion ? "RATE" : "MEAN", "LIFT", "95 % INTERVAL",
                      engine.isBayesian ? chanceTitle : "P-VALUE"] + (verdicts ? ["VERDICT"] : [])
        let rows = plainRows(metric, engine).enumerated().map { index, row in
            guard verdicts else { return row }
            return row + [metric.variants[index].verdict.map(DecisionText.word) ?? ""]
        }
        let role = DecisionText.roleWords(metric).map { ", \($0)" } ?? ""
        return ["\(SafeOutput.text(metric.name)) (\(metric.type.rawValue)\(role))"] + SafeOutput.table(header, rows)
    }

    private static func plainRows(_ metric: ResultsReport.MetricResult, _ engine: ResultsEngine) -> [[String]] {
        let proportion = metric.type == .proportion
        let rows = metric.variants.map { variant -> [String] in
            let mean = variant.mean.map { proportion ? ResultsFormat.percent($0) : ResultsFormat.number($0) } ?? "—"
            var row = [variant.name + (variant.isControl ? " (control)" : ""), ResultsFormat.count(variant.totals.subjects),
                       ResultsFormat.number(variant.totals.sum), mean]
            if variant.isControl { return row + ["", "", ""] }
            guard let lift = variant.lift else { return row + ["—", variant.note.map { "no estimate: \($0)" } ?? "no estimate", ""] }
            row.append(ResultsFormat.lift(lift))
            row.append(variant.interval.map(ResultsFormat.interval) ?? "—")
            let last = engine.isBayesian ? variant.chanceToWin.map(ResultsFormat.chance) : variant.pValue.map(ResultsFormat.pValue)
            row.append(last ?? "—")
            return row
        }
        return rows
    }
}
