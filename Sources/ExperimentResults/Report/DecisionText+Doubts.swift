extension DecisionText {
    /// Why the console's resolve form asks a second time beyond `resolveObjections` (SPEC §12): a
    /// winner other than the control that the goal does not call *better* (inconclusive, worse, no
    /// estimate, or a goal without data). Empty without a goal or for the control.
    public static func goalDoubts(_ report: ResultsReport, winner: String) -> [String] {
        guard let goal = report.named.goal, winner != report.analysis.control else { return [] }
        guard let metric = report.metrics.first(where: { $0.role == .goal }) else { return ["goal \(goal.metric): no data"] }
        guard let variant = metric.variants.first(where: { $0.name == winner }), variant.verdict != .better else { return [] }
        return ["goal \(goal.metric) calls \(winner) \(verdictClause(variant, report.engine)), not better"]
    }
}
