/// A report in words and numbers, once for every front (SPEC §8, §12): the `results` command and the
/// console screen only lay these cells out; they word nothing themselves.
///
/// Texts are raw (a front escapes them for its output); empty strings are cells a front leaves blank.
package struct ResultsPresentation: Equatable, Sendable {
    /// One variant's row of a metric's table.
    package struct Row: Equatable, Sendable {
        package var variant: String
        package var isControl: Bool
        package var subjects: String
        /// Σ value (converted subjects of a proportion).
        package var total: String
        /// The rate or the mean (with CUPED the adjusted one, Ȳ − θX̄); `—` with no subjects.
        package var mean: String
        /// With CUPED: the unadjusted rate or mean, shown beside the adjusted one; nil without CUPED.
        package var unadjusted: String? = nil
        /// `+4.2 %`; `—` without an estimate; empty for the control.
        package var lift: String
        /// `[-1.0 %, +9.5 %]`; `no estimate: …` without an estimate; empty for the control.
        package var interval: String
        /// The chance to win (Bayesian) or the p-value; empty without an estimate and for the control.
        package var evidence: String
        /// `better`, `FAILS`, …; empty for the control.
        package var verdict: String
    }

    /// One metric's table.
    package struct Metric: Equatable, Sendable {
        package var name: String
        /// `purchase (proportion, goal, lower is better)`.
        package var title: String
        /// The columns' titles up to the evidence: VARIANT, SUBJECTS, CONVERTED/TOTAL, RATE/MEAN, LIFT, 95 % INTERVAL, CHANCE TO WIN/CHANCE LOWER/P-VALUE.
        package var columns: [String]
        package var rows: [Row]
        /// `CUPED θ = 0.512, lookback 14 days`: the adjustment behind the means and the lift; nil without CUPED.
        package var cuped: String? = nil
    }

    package var experiment: String
    /// `Bayesian`, `frequentist` or `frequentist, sequential`.
    package var engine: String
    /// `2026-11-01T00:00:00Z – 2026-11-04T12:00:00Z`, to the second.
    package var window: String
    /// The one-line decision (without `verdict: `); nil when the experiment names no goal or guardrail.
    package var headline: String?
    /// The days still needed for 80 % power at a 5 % effect on the goal, and what power is for; nil without a goal.
    package var plan: String?
    /// `1,000 exposed`, `990 analysed`, `10 in several variants (removed)`, …: a front joins them with ` · `.
    package var subjects: [String]
    /// `last exposure 2026-11-04T11:59:59Z`; nil without exposures.
    package var lastExposure: String?
    /// The sample-ratio verdict: `ok (p = 0.4512)`, `MISMATCH (p < 0.0001)`, `not applicable: …`.
    package var sampleRatio: String
    /// Each weighted variant's observed share of the expected one; empty when no variant has a weight.
    package var split: String
    /// `p-values adjusted by Holm over 4 tests (the goal × the non-control variants)`; nil without a correction.
    package var correction: String?
    /// Why there is no metric in the logs (a guardrail no row names does not count); nil when there are metrics.
    package var noMetrics: String?
    package var metrics: [Metric]
    /// Every warning in order; `isBanner` ones must be shown above the numbers.
    package var warnings: [ResultsWarning]

    package init(_ report: ResultsReport) {
        let analysis = report.analysis
        experiment = analysis.experiment
        engine = report.engine.words
        window = "\(ResultsFormat.timeToSecond(analysis.window.from)) – \(ResultsFormat.timeToSecond(analysis.window.to))"
        headline = report.named.isEmpty ? nil : DecisionText.headline(report)
        plan = report.named.goal.flatMap { try? PowerPlan(analysis, metric: $0.metric) }.map { "\(DecisionText.planLine($0)). \(DecisionText.powerMeaning($0.mde))" }
        subjects = Self.subjectsParts(analysis.subjects)
        lastExposure = ResultsFormat.lastExposure(analysis)
        sampleRatio = Self.sampleRatioWords(report.sampleRatio)
        split = DecisionText.observedOfExpected(report.sampleRatio)
        correction = report.correction.map { correction in
            let family = report.named.goal == nil ? "every metric but the guardrails" : "the goal"
            return "p-values adjusted by \(correction.method.name) over \(correction.tests) \(correction.tests == 1 ? "test" : "tests") (\(family) × the non-control variants); the verdicts read the adjusted ones"
        }
        noMetrics = report.metrics.allSatisfy(\.isMissing) ? DecisionText.noMetricsReason(analysis) : nil
        metrics = report.metrics.map { Self.metric($0, report.engine, lookback: analysis.lookback) }
        warnings = report.warnings
    }

    static func subjectsParts(_ counts: SubjectCounts) -> [String] {
        var parts: [String] = []
        if let exposed = counts.exposed { parts.append("\(ResultsFormat.count(exposed)) exposed") }
        parts.append("\(ResultsFormat.count(counts.analysed)) analysed")
        if let multiple = counts.multipleVariants { parts.append("\(ResultsFormat.count(multiple)) in several variants (removed)") }
        if let whitelisted = counts.whitelisted { parts.append("\(ResultsFormat.count(whitelisted)) whitelisted (removed)") }
        if let unknown = counts.unknownVariantRows, unknown > 0 { parts.append("\(ResultsFormat.count(unknown)) rows for unknown variants") }
        return parts
    }

    static func sampleRatioWords(_ verdict: SampleRatioVerdict) -> String {
        let p = verdict.pValue.map { " (\(ResultsFormat.pClause($0)))" } ?? ""
        return switch verdict.status {
        case .ok: "ok\(p)"
        case .mismatch: "MISMATCH\(p)"
        case .notEnoughTraffic: "not enough traffic to check\(p)"
        case .notApplicable: "not applicable: " + (verdict.expected.count < 2
            ? "fewer than two variants have a weight, so there is no split to compare"
            : "the weights changed inside the window")
        }
    }

    /// One metric's table (the resolve form's evidence shows its rows too); with CUPED, `lookback` is the one the logs were read with.
    package static func metric(_ metric: ResultsReport.MetricResult, _ engine: StatsEngine, lookback: Int64? = nil) -> Metric {
        let proportion = metric.type == .proportion
        let adjusted = metric.variants.contains { $0.pValueAdjusted != nil }
        let evidence = engine.isBayesian ? (metric.direction == .decrease ? "CHANCE LOWER" : "CHANCE TO WIN") : adjusted ? "ADJ. P-VALUE (RAW)" : "P-VALUE"
        let role = DecisionText.roleWords(metric).map { ", \($0)" } ?? ""
        let cuped = metric.variants.contains { $0.totals.covariate != nil } ? cupedWords(metric, lookback: lookback) : nil
        var rows = metric.variants.map { row($0, proportion: proportion, engine, missing: metric.isMissing) }
        if cuped != nil { rows = adjustedRows(rows, metric, proportion: proportion) }
        return Metric(
            name: metric.name,
            title: "\(metric.name) (\(metric.isMissing ? "no conversions" : metric.type.rawValue)\(role))" + (cuped.map { " · " + $0 } ?? ""),
            columns: ["VARIANT", "SUBJECTS", proportion ? "CONVERTED" : "TOTAL", (proportion ? "RATE" : "MEAN") + (cuped == nil ? "" : " (CUPED)"),
                      "LIFT", "95 % INTERVAL", evidence],
            rows: rows,
            cuped: cuped
        )
    }

    /// `CUPED θ = 0.512, lookback 14 days` (with several variants, θ per variant: `θ = 0.512 (green), 0.498 (blue)`).
    static func cupedWords(_ metric: ResultsReport.MetricResult, lookback: Int64?) -> String {
        let pairs = metric.variants.compactMap { variant in variant.adjusted.map { (variant.name, $0.theta) } }
        let theta = pairs.count == 1 ? ResultsFormat.number(pairs[0].1) : pairs.map { "\(ResultsFormat.number($0.1)) (\($0.0))" }.joined(separator: ", ")
        let days = lookback.map { ", lookback \(ResultsFormat.number(Double($0) / 86_400e9)) days" } ?? ", covariates from the summary"
        return "CUPED θ = " + (pairs.isEmpty ? "—" : theta) + days
    }

    /// The rows with the adjusted means in the mean column and the unadjusted ones beside them; the
    /// control's adjusted mean depends on θ, so with several θ it is given against each variant.
    static func adjustedRows(_ rows: [Row], _ metric: ResultsReport.MetricResult, proportion: Bool) -> [Row] {
        let format = { (value: Double) in proportion ? ResultsFormat.percent(value) : ResultsFormat.number(value) }
        let pairs = metric.variants.compactMap { variant in variant.adjusted.map { (variant.name, $0) } }
        let controls = pairs.map { format($0.1.control) }
        let control = Set(controls).count <= 1 ? controls.first : pairs.map { "\(format($0.1.control)) vs \($0.0)" }.joined(separator: ", ")
        return zip(rows, metric.variants).map { row, variant in
            var row = row
            row.unadjusted = row.mean
            if variant.isControl {
                row.mean = control ?? row.mean
            } else if let adjusted = variant.adjusted {
                row.mean = format(adjusted.treatment)
            }
            return row
        }
    }

    static func row(_ variant: ResultsReport.VariantResult, proportion: Bool, _ engine: StatsEngine, missing: Bool = false) -> Row {
        var row = Row(variant: variant.name, isControl: variant.isControl, subjects: ResultsFormat.count(variant.totals.statistics.subjects),
                      total: missing ? "—" : ResultsFormat.number(variant.totals.statistics.sum),
                      mean: variant.mean.map { proportion ? ResultsFormat.percent($0) : ResultsFormat.number($0) } ?? "—",
                      lift: "", interval: "", evidence: "", verdict: variant.verdict.map(DecisionText.word) ?? "")
        guard !variant.isControl else { return row }
        if variant.verdict == .noData {
            (row.lift, row.interval) = ("—", "no data: no conversion in the window")
            return row
        }
        guard let lift = variant.lift else {
            row.lift = "—"
            row.interval = variant.note.map { "no estimate: \($0)" } ?? "no estimate"
            return row
        }
        row.lift = ResultsFormat.lift(lift)
        row.interval = variant.interval.map(ResultsFormat.interval) ?? "—"
        row.evidence = (engine.isBayesian ? variant.chanceToWin.map(ResultsFormat.chance) : variant.pValue.map(ResultsFormat.pValue)) ?? "—"
        if let adjusted = variant.pValueAdjusted { row.evidence = "\(ResultsFormat.pValue(adjusted)) (\(row.evidence))" }
        return row
    }
}

extension ResultsPresentation {
    /// The words that open the report's lines, the same in the CLI's text and on the console's screen.
    package enum Label {
        package static let verdict = "verdict: "
        package static let sampleRatio = "sample ratio: "
        package static let observedOfExpected = "observed of expected: "
        package static let noMetrics = "no metrics: "
    }
}
