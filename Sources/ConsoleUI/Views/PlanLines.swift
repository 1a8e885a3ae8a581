import ExperimentCore
import Foundation

/// The detail screen's ramp plan block (SPEC §14): the plan's state and options, its steps with the
/// current one marked, when the next advance can come, and the last decision with its reason.
enum PlanLines {
    /// The block's lines for `experiment`, given its history (the current step began at its latest `ramp`); none without a plan.
    static func lines(_ experiment: Experiment, history: [HistoryEntry]) -> [String] {
        guard let plan = experiment.plan else { return [] }
        let order = experiment.variants.map(\.name)
        var lines = ["RAMP PLAN  \(plan.state.rawValue.replacingOccurrences(of: "_", with: " ")) · step \(plan.step) of \(plan.steps.count) · "
            + "hold \(RolloutPlan.durationText(plan.holdSeconds)) · ≥ \(plan.minSubjects) subjects · guardrail → \(plan.onGuardrail.rawValue) · "
            + "mismatch → \(plan.onSRM.rawValue)"]
        for (index, step) in plan.steps.enumerated() {
            lines.append("\(index + 1 == plan.step ? "▸" : " ") \(index + 1)  \(RolloutPlan.weightsText(step, order: order))")
        }
        lines.append("next advance: " + nextAdvance(plan, experiment: experiment, history: history))
        if let decision = plan.lastDecision {
            lines.append("last decision: \(decision.action) at \(TimeLabel.utc(decision.at)) — \(decision.reason)")
        }
        return lines
    }

    /// When `advance` may move on: the current step's start plus the hold, or why it will not.
    private static func nextAdvance(_ plan: RolloutPlan, experiment: Experiment, history: [HistoryEntry]) -> String {
        switch plan.state {
        case .paused: return "none while the plan is paused"
        case .done: return "none — the last step is reached"
        case .rolledBack: return "none — rolled back to \(RolloutPlan.weightsText(plan.startedFrom ?? [:], order: experiment.variants.map(\.name)))"
        case .active: break
        }
        guard plan.step > 0, experiment.status == .running else { return plan.step == 0 ? "step 1 applies at start" : "none while \(experiment.status.rawValue)" }
        guard let start = history.last(where: { $0.experiment == experiment.key && $0.action == .ramp })?.at else { return "unknown" }
        return "not before \(TimeLabel.utc(plan.nextAdvance(stepStartedAt: start))), with the subjects and guardrails checked"
    }
}
