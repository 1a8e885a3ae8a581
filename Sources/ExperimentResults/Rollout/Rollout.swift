import ExperimentCore
import Foundation

/// The rule of `advance` (SPEC §14): from an experiment, its ramp plan and the current phase's
/// evidence, advance to the next step, hold, or roll back. Pure: the caller reads the evidence and
/// applies the change the decision names (`RolloutDecision.change`).
package enum Rollout {
    /// The engine of the guardrail gate: a scheduled job looks again and again, so the always-valid
    /// interval (GrowthBook's sequential confidence sequence) is the one whose error rate holds.
    static let guardrailEngine = StatsEngine.frequentist(sequential: true)

    /// Why `advance` leaves `experiment` alone whatever the evidence (no plan, a plan not active or
    /// at its last step, an experiment not running); nil when it decides from the evidence, which the caller then reads.
    package static func inactiveReason(_ experiment: Experiment) -> String? {
        guard let plan = experiment.plan else { return "`\(experiment.key)` has no ramp plan" }
        switch plan.state {
        case .active: break
        case .paused: return "the plan of `\(experiment.key)` is paused (ramp-plan --resume carries it on)"
        case .done: return "the plan of `\(experiment.key)` is done"
        case .rolledBack: return "the plan of `\(experiment.key)` was rolled back"
        }
        switch experiment.status {
        case .running: break
        case .draft: return "`\(experiment.key)` is a draft: advance never starts an experiment (its plan's first step applies at start)"
        case .paused: return "`\(experiment.key)` is paused: advance waits until it is started again"
        case .resolved: return "`\(experiment.key)` is resolved"
        }
        if plan.step < 1 { return "no step of the plan of `\(experiment.key)` has applied yet" }
        if plan.isAtLastStep { return "`\(experiment.key)` is at the last step of its plan" }
        return nil
    }

    /// The decision for `experiment` under its plan at `now`, from `evidence`: the analysis of the
    /// current phase (SPEC §8), nil when none was read. Rollback first (it waits for neither the hold
    /// nor the subjects: the sequential interval is valid at any look), then every reason to hold,
    /// then the next step; reaching the last step finishes the plan at once (`done`).
    package static func decide(_ experiment: Experiment, evidence: Analysis?, now: Date) -> RolloutDecision {
        let current = experiment.namedWeights
        let order = experiment.variants.map(\.name)
        guard let plan = experiment.plan else {
            return RolloutDecision(experiment: experiment.key, action: .none, step: 0, steps: 0, weights: current,
                                   reason: inactiveReason(experiment) ?? "")
        }
        let decision = { (action: RolloutDecision.Action, step: Int, weights: [NamedWeight], reason: String) in
            RolloutDecision(experiment: experiment.key, action: action, step: step, steps: plan.steps.count, weights: weights, reason: reason)
        }
        if let reason = inactiveReason(experiment) { return decision(.none, plan.step, current, reason) }
        guard let evidence else { return decision(.hold, plan.step, current, "no evidence was read") }
        let report = ResultsReport(evidence, engine: guardrailEngine, named: experiment.metrics)
        let gate = Gate(report: report, experiment: experiment, plan: plan, now: now)
        if !gate.rollbackReasons.isEmpty {
            return decision(.rollback, plan.step, named(plan.startedFrom ?? [:], order: order), gate.rollbackReasons.joined(separator: "; "))
        }
        if !gate.holdReasons.isEmpty { return decision(.hold, plan.step, current, gate.holdReasons.joined(separator: "; ")) }
        let next = plan.step + 1
        return decision(next == plan.steps.count ? .done : .advance, next, named(plan.weights(ofStep: next) ?? [:], order: order), gate.evidence)
    }

    /// Weights by name as named weights in the experiment's variant order (a variant a step leaves out has none).
    static func named(_ weights: [String: Weight], order: [String]) -> [NamedWeight] {
        order.map { NamedWeight(name: $0, weight: weights[$0] ?? .zero) }
    }
}
