import ExperimentCore

/// What a metric is to an experiment (SPEC §12): its goal, one of its guardrails, or another metric.
package enum MetricRole: String, Equatable, Sendable {
    case goal, guardrail, other

    /// A metric's role and direction in one experiment, and the verdict rule that goes with the role.
    struct Assigned {
        var role: MetricRole
        var direction: MetricDirection

        init(metric: String, named: ExperimentMetrics) {
            if let goal = named.goal, goal.metric == metric {
                (role, direction) = (.goal, goal.direction)
            } else if let guardrail = named.guardrails.first(where: { $0.metric == metric }) {
                (role, direction) = (.guardrail, guardrail.direction)
            } else {
                (role, direction) = (.other, .increase)
            }
        }

        func verdict(lift: Double?, chanceToWin: Double?, pValue: Double?) -> MetricVerdict {
            Statistics.verdict(guardrail: role == .guardrail, lift: lift, chanceToWin: chanceToWin, pValue: pValue,
                               lowerIsBetter: direction == .decrease)
        }
    }

    /// The goal first, then the guardrails in the order named, then the others as they came.
    static func ordered(_ metrics: [ResultsReport.MetricResult], named: ExperimentMetrics) -> [ResultsReport.MetricResult] {
        let rank = Dictionary(named.named.enumerated().map { ($0.element.metric, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return metrics.enumerated().sorted { lhs, rhs in
            let left = rank[lhs.element.name] ?? Int.max, right = rank[rhs.element.name] ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The metrics `results` asks the logs for: those given with `--metric`; else, when the
    /// experiment names a goal or guardrails and `allMetrics` is off, exactly those (goal first);
    /// else every metric (empty: all).
    package static func wanted(given: [String], named: ExperimentMetrics, allMetrics: Bool) -> [String] {
        if !given.isEmpty || allMetrics { return given }
        return named.named.map(\.metric)
    }
}
