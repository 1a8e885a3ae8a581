extension DecisionText {
    /// Why the console's resolve form asks a second time beyond `resolveObjections` (SPEC §12): a
    /// winner other than the control that the goal does not call *better* (inconclusive, worse, no
    /// estimate, or a goal without data). Empty without a goal or for the control.
    package static func goalDoubts(_ report: ResultsReport, winner: String) -> [String] {
        guard let goal = report.named.goal, winner != report.analysis.control else { return [] }
        guard let metric = report.metrics.first(where: { $0.role == .goal }) else { return ["goal \(goal.metric): no data"] }
        guard let variant = metric.variants.first(where: { $0.name == winner }), variant.verdict != .better else { return [] }
        return ["goal \(goal.metric) calls \(winner) \(verdictClause(variant, report.engine)), not better"]
    }
}

extension DecisionText {
    /// `guardrails: deposit FAILS · refnd NO DATA · latency ok`: every guardrail's verdict (one per
    /// variant, `dark ok, high_contrast FAILS`, when they differ), so a screen that shows one metric's
    /// table at a time still shows each guardrail; nil without guardrails.
    package static func guardrailsLine(_ report: ResultsReport) -> String? {
        let guardrails = report.metrics.filter { $0.role == .guardrail }
        guard !guardrails.isEmpty else { return nil }
        return "guardrails: " + guardrails.map { metric in
            let variants = metric.variants.filter { !$0.isControl }
            let words = variants.map { $0.verdict.map(word) ?? "" }
            guard Set(words).count > 1 else { return "\(metric.name) \(words.first ?? "")" }
            return "\(metric.name) " + zip(variants, words).map { "\($0.name) \($1)" }.joined(separator: ", ")
        }.joined(separator: " · ")
    }
}
