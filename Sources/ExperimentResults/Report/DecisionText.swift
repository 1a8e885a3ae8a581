import ExperimentCore

/// The words of the decision (SPEC §12), the same for `results`, `resolve` and the console: the
/// one-line verdict, each verdict, and why a resolve should stop.
package enum DecisionText {
    /// `goal purchase: green better (99.2 %); guardrails ok; sample ratio ok`.
    package static func headline(_ report: ResultsReport) -> String {
        var parts: [String] = []
        if let goal = report.named.goal {
            if let metric = report.metrics.first(where: { $0.role == .goal }) {
                let variants = metric.variants.filter { !$0.isControl }.map { "\($0.name) \(verdictClause($0, report.engine))" }
                parts.append("goal \(goal.metric): " + (variants.isEmpty ? "no variant to compare" : variants.joined(separator: ", ")))
            } else {
                parts.append("goal \(goal.metric): no data")
            }
        } else {
            parts.append("no goal metric named")
        }
        if !report.named.guardrails.isEmpty {
            let failing = guardrailFailures(report, variant: nil) + guardrailsWithoutData(report, variant: nil)
            parts.append(failing.isEmpty ? "guardrails ok" : failing.joined(separator: ", "))
        }
        parts.append("sample ratio " + sampleRatioWords(report.sampleRatio))
        return parts.joined(separator: "; ")
    }

    /// `better (99.2 %)`, `inconclusive (p = 0.2100)`, `no estimate`: a variant's verdict with the number behind it.
    package static func verdictClause(_ variant: ResultsReport.VariantResult, _ engine: StatsEngine) -> String {
        guard let verdict = variant.verdict else { return "" }
        guard variant.lift != nil else { return "\(word(verdict)) (no estimate)" }
        if let chance = variant.chanceToWin { return "\(word(verdict)) (\(ResultsFormat.chance(chance)))" }
        if let p = variant.pValueAdjusted { return "\(word(verdict)) (adjusted \(ResultsFormat.pClause(p)))" }
        if let p = variant.pValue { return "\(word(verdict)) (\(ResultsFormat.pClause(p)))" }
        return word(verdict)
    }

    /// A verdict as shown: `better`, `worse`, `inconclusive`, `ok`, `FAILS`, `NO DATA`.
    package static func word(_ verdict: MetricVerdict) -> String {
        switch verdict {
        case .fails: "FAILS"
        case .noData: "NO DATA"
        default: verdict.rawValue
        }
    }

    /// `ok`, `MISMATCH (p < 0.0001)`, `not checked (not enough traffic)`, `not checked (the weights changed in the window)`.
    package static func sampleRatioWords(_ verdict: SampleRatioVerdict) -> String {
        switch verdict.status {
        case .ok: "ok"
        case .mismatch: "MISMATCH" + (verdict.pValue.map { " (\(ResultsFormat.pClause($0)))" } ?? "")
        case .notEnoughTraffic: "not checked (not enough traffic)"
        case .notApplicable: "not checked (" + (verdict.expected.count < 2 ? "fewer than two variants have a weight" : "the weights changed in the window") + ")"
        }
    }

    /// `guardrail refund FAILS for green (97.0 % chance of being worse)`, one per failing guardrail and variant
    /// (only `variant`'s when given).
    package static func guardrailFailures(_ report: ResultsReport, variant name: String?) -> [String] {
        report.metrics.filter { $0.role == .guardrail }.flatMap { metric in
            metric.variants.filter { $0.verdict == .fails && (name == nil || $0.name == name) }.map { variant in
                let evidence = variant.chanceToWin.map { "\(ResultsFormat.chance(1 - $0)) chance of being worse" }
                    ?? variant.pValue.map { "one-sided \(ResultsFormat.pClause($0 / 2))" } ?? ""
                return "guardrail \(metric.name) FAILS for \(variant.name)" + (evidence.isEmpty ? "" : " (\(evidence))")
            }
        }
    }

    /// `guardrail refund: no data`, one per guardrail without data (only when `variant`, given, has that verdict: not the control).
    package static func guardrailsWithoutData(_ report: ResultsReport, variant name: String?) -> [String] {
        report.metrics.filter { metric in
            metric.role == .guardrail && metric.variants.contains { $0.verdict == .noData && (name == nil || $0.name == name) }
        }.map { "guardrail \($0.name): no data" }
    }

    /// Why resolving to `winner` needs `--force` (or a second yes in the console): a sample-ratio
    /// mismatch, a guardrail failing for `winner` or without data. Empty when nothing stands in the way.
    package static func resolveObjections(_ report: ResultsReport, winner: String) -> [String] {
        var objections: [String] = []
        if report.sampleRatio.status == .mismatch { objections.append("sample ratio " + sampleRatioWords(report.sampleRatio)) }
        objections += guardrailFailures(report, variant: winner)
        objections += guardrailsWithoutData(report, variant: winner)
        return objections
    }

    /// The variant the goal favours: the best mean in the goal's direction (the control when no
    /// variant has data); nil without a goal in the report.
    package static func goalLeader(_ report: ResultsReport) -> String? {
        guard let metric = report.metrics.first(where: { $0.role == .goal }) else { return nil }
        let sign = metric.direction == .decrease ? -1.0 : 1.0
        return metric.variants.filter { $0.mean != nil }.max { sign * ($0.mean ?? 0) < sign * ($1.mean ?? 0) }?.name
            ?? metric.variants.first(where: \.isControl)?.name
    }

    /// `goal` or `guardrail, lower is better`: a metric's role in a table's title.
    package static func roleWords(_ metric: ResultsReport.MetricResult) -> String? {
        let direction = metric.direction == .decrease ? "lower is better" : nil
        switch metric.role {
        case .goal: return ["goal", direction].compactMap { $0 }.joined(separator: ", ")
        case .guardrail: return ["guardrail", direction].compactMap { $0 }.joined(separator: ", ")
        case .other: return nil
        }
    }
}

extension DecisionText {
    /// `control 45.0 % of 50.0 %, green 55.0 % of 50.0 %`: each variant's observed share of the analysed subjects against the expected one.
    package static func observedOfExpected(_ verdict: SampleRatioVerdict) -> String {
        let total = verdict.observed.reduce(0) { $0 + $1.subjects }
        return zip(verdict.expected, verdict.observed).map { expected, observed in
            let share = total > 0 ? Double(observed.subjects) / Double(total) : 0
            return "\(expected.name) \(ResultsFormat.percent(share, digits: 1)) of \(ResultsFormat.percent(expected.share, digits: 1))"
        }.joined(separator: ", ")
    }

    /// Why a report has no metric: no exposures in the window, no analysed subjects, or no conversion of theirs.
    package static func noMetricsReason(_ analysis: Analysis) -> String {
        analysis.subjects.exposed == 0 ? "no exposures of this experiment in the window"
            : analysis.subjects.analysed == 0 ? "no analysed subjects in the window"
            : "no conversion of the analysed subjects names a metric"
    }

    /// `about 12 more days for 80 % power at a 5 % effect`, `80 % power at a 5 % effect reached`, or
    /// `… not within 365 days at this traffic`: the slowest variant of the plan.
    package static func planLine(_ plan: PowerPlan) -> String {
        let goal = "\(ResultsFormat.percent(plan.target, digits: 0)) power at a \(effectWords(plan.mde)) effect"
        guard !plan.rows.isEmpty, plan.rows.allSatisfy({ $0.power != nil }) else { return "no power estimate for \(goal) (no control mean or variance yet)" }
        let days = plan.rows.map(\.daysRemaining)
        if days.contains(where: { $0 == nil }) { return "\(goal) not within \(Statistics.horizonDays) days at this traffic" }
        let most = days.compactMap { $0 }.max() ?? 0
        return most == 0 ? "\(goal) reached" : "about \(most) more \(most == 1 ? "day" : "days") for \(goal)"
    }

    /// What power is for, beside a chance to win: `power: the chance of detecting a true 5 % effect — it says how long to run, not who wins`.
    package static func powerMeaning(_ mde: Double) -> String {
        "power: the chance of detecting a true \(effectWords(mde)) effect — it says how long to run, not who wins"
    }

    /// A relative effect in percent without needless decimals: `0.05` → `5 %`, `0.025` → `2.5 %`.
    package static func effectWords(_ mde: Double) -> String {
        ResultsFormat.number(mde * 100) + " %"
    }
}
