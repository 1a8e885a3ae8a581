import ExperimentCore
import Foundation

/// The rule of `advance` (SPEC §14): from an experiment, its plan and the current phase's evidence,
/// advance to the next step, hold, or roll back. Pure: the caller reads the evidence and applies the decision.
public enum Rollout {
    /// The plan as the rule reads it (plain values; the store's model maps onto it).
    public struct Plan: Equatable, Sendable {
        public enum State: String, Equatable, Sendable { case active, paused, done, rolledBack = "rolled_back" }
        public enum OnGuardrail: String, Equatable, Sendable { case rollback, hold }
        public enum OnSampleRatio: String, Equatable, Sendable { case hold, rollback }

        /// Each step's full weights.
        public var steps: [[NamedWeight]]
        /// The step in force, 1-based.
        public var step: Int
        /// The least time a step stays, in seconds.
        public var holdSeconds: Int
        /// The analysed subjects of the current phase (all variants) a step needs.
        public var minSubjects: Int
        public var onGuardrail: OnGuardrail
        public var onSampleRatio: OnSampleRatio
        public var state: State
        /// The weights before the first step: where a rollback goes.
        public var startWeights: [NamedWeight]

        public init(steps: [[NamedWeight]], step: Int, holdSeconds: Int, minSubjects: Int, onGuardrail: OnGuardrail,
                    onSampleRatio: OnSampleRatio, state: State, startWeights: [NamedWeight]) {
            self.steps = steps
            self.step = step
            self.holdSeconds = holdSeconds
            self.minSubjects = minSubjects
            self.onGuardrail = onGuardrail
            self.onSampleRatio = onSampleRatio
            self.state = state
            self.startWeights = startWeights
        }
    }

    /// The engine of the guardrail gate: a scheduled job looks again and again, so the always-valid
    /// interval (GrowthBook's sequential confidence sequence) is the one whose error rate holds.
    static let guardrailEngine = StatsEngine.frequentist(sequential: true)

    /// Why `advance` leaves `experiment` alone whatever the evidence (no plan, a plan not active, an
    /// experiment not running); nil when it decides from the evidence, which the caller then reads.
    public static func inactiveReason(_ experiment: Experiment, _ plan: Plan?) -> String? {
        guard let plan else { return "`\(experiment.key)` has no ramp plan" }
        switch plan.state {
        case .active: break
        case .paused: return "the plan of `\(experiment.key)` is paused (ramp-plan --resume carries it on)"
        case .done: return "the plan of `\(experiment.key)` is done"
        case .rolledBack: return "the plan of `\(experiment.key)` was rolled back"
        }
        switch experiment.status {
        case .running: return nil
        case .draft: return "`\(experiment.key)` is a draft: advance never starts an experiment (its plan's first step applies at start)"
        case .paused: return "`\(experiment.key)` is paused: advance waits until it is started again"
        case .resolved: return "`\(experiment.key)` is resolved"
        }
    }

    /// The decision for `experiment` under `plan` at `now`, from `evidence`: the analysis of the
    /// current phase (SPEC §8), nil when none was read. Rollback first (it waits for neither the hold
    /// nor the subjects: the sequential interval is valid at any look), then every reason to hold,
    /// then the next step; reaching the last step finishes the plan at once.
    public static func decide(_ experiment: Experiment, _ plan: Plan?, evidence: Analysis?, now: Date) -> RolloutDecision {
        let current = experiment.namedWeights
        guard let plan else {
            return RolloutDecision(experiment: experiment.key, action: .none, step: 0, steps: 0, weights: current,
                                   reason: inactiveReason(experiment, nil) ?? "")
        }
        let at = { (action: RolloutDecision.Action, step: Int, weights: [NamedWeight], reason: String) in
            RolloutDecision(experiment: experiment.key, action: action, step: step, steps: plan.steps.count, weights: weights, reason: reason)
        }
        if let reason = inactiveReason(experiment, plan) { return at(.none, plan.step, current, reason) }
        guard plan.step < plan.steps.count else {
            return at(.done, plan.step, current, "step \(plan.step) of \(plan.steps.count) is the last: the plan is done")
        }
        guard let evidence else { return at(.hold, plan.step, current, "no evidence was read") }
        let report = ResultsReport(evidence, engine: guardrailEngine, named: experiment.metrics)
        let gate = Gate(report: report, experiment: experiment, plan: plan, now: now)
        if !gate.rollbackReasons.isEmpty {
            return at(.rollback, plan.step, plan.startWeights, gate.rollbackReasons.joined(separator: "; "))
        }
        if !gate.holdReasons.isEmpty { return at(.hold, plan.step, current, gate.holdReasons.joined(separator: "; ")) }
        let next = plan.step + 1
        return at(next == plan.steps.count ? .done : .advance, next, plan.steps[next - 1], gate.evidence)
    }

    /// Whether two weightings give every variant the same buckets (a variant missing from one has none).
    static func sameWeights(_ lhs: [NamedWeight], _ rhs: [NamedWeight]) -> Bool {
        let buckets = { (weights: [NamedWeight]) in Dictionary(weights.map { ($0.name, $0.weight.buckets) }, uniquingKeysWith: +).filter { $0.value > 0 } }
        return buckets(lhs) == buckets(rhs)
    }
}
