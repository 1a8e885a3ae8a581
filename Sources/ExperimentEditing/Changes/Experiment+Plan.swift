import ExperimentCore
import Foundation

/// The ramp plan's changes (SPEC §14): set, clear, pause, resume, and `advance`'s advance and
/// rollback, each step a minimal-move ramp (§3) recorded as its own `ramp` entry.
extension Experiment {
    /// Applies a plan change; `apply` has checked the status (`refusal(for:)`) already.
    mutating func applyPlan(_ change: ExperimentChange, context: ChangeContext) throws(ExperimentError) -> AppliedChange {
        let order = variants.map(\.name)
        switch change {
        case .setPlan(var wanted):
            if let problem = wanted.problems(variants: order).first { throw .invalidPlan(problem.message) }
            let before = plan?.summary(order: order)
            wanted.unknownFields = plan?.unknownFields ?? wanted.unknownFields
            (wanted.step, wanted.state, wanted.lastDecision, wanted.startedFrom) = (0, .active, nil, nil)
            // Checked before anything changes: the first step's ramp, unless a draft waits for `start`.
            let first = status == .draft ? nil : try stepRamp(to: wanted.steps[0])
            plan = wanted
            let taken = first.map { takeFirstStep($0) }
            let message = taken.map { "set a ramp plan of \(wanted.steps.count) steps on `\(key)`; step 1 applied: it now serves \(weightSummary), "
                + "\(Experiment.percentText($0.plan.movedShare)) of subjects switched variant" }
                ?? "set a ramp plan of \(wanted.steps.count) steps on `\(key)`; step 1 applies when it starts"
            var applied = AppliedChange(action: .planSet, before: before, after: wanted.summary(order: order),
                                        result: ChangeOutcome(message: message, ramp: taken?.plan))
            applied.ramp = taken?.entry
            return applied
        case .clearPlan:
            guard let current = plan else { throw .noPlan(experiment: key) }
            plan = nil
            return AppliedChange(action: .planClear, before: current.summary(order: order), after: nil,
                                 result: ChangeOutcome(message: "cleared the ramp plan of `\(key)`; its weights stay \(weightSummary)"))
        case .pausePlan, .resumePlan:
            guard let current = plan else { throw .noPlan(experiment: key) }
            let pausing = change == .pausePlan
            guard current.state == .active || current.state == .paused else {
                throw .planState(experiment: key, state: current.state, refused: pausing ? "pause" : "resume")
            }
            plan?.state = pausing ? .paused : .active
            return AppliedChange(action: pausing ? .planPause : .planResume, before: current.state.rawValue, after: plan?.state.rawValue,
                                 result: ChangeOutcome(message: pausing ? "paused the ramp plan of `\(key)`; `advance` leaves it as it is"
                                     : "resumed the ramp plan of `\(key)` at step \(current.step) of \(current.steps.count)"))
        case .advancePlan(let reason):
            let current = try activePlan(refused: "advance")
            guard status == .running else { throw .planState(experiment: key, state: current.state, refused: "advance while `\(key)` is \(status.rawValue)") }
            guard let next = current.weights(ofStep: current.step + 1) else {
                throw .planState(experiment: key, state: .done, refused: "advance past its last step")
            }
            let ramp = try stepRamp(to: next)
            let before = stepText(current, current.step)
            let entry = takeRamp(ramp)
            plan?.step = current.step + 1
            if plan?.isAtLastStep == true { plan?.state = .done }
            plan?.lastDecision = RolloutPlan.Decision(at: context.now, action: "advance", reason: reason)
            let after = stepText(plan ?? current, current.step + 1) + ": " + reason
            var applied = AppliedChange(action: .advance, before: before, after: after,
                                        result: ChangeOutcome(message: "advanced `\(key)` to step \(current.step + 1) of \(current.steps.count): "
                                            + "it now serves \(weightSummary), \(Experiment.percentText(ramp.movedShare)) of subjects switched variant", ramp: ramp))
            applied.ramp = entry
            return applied
        case .rollBackPlan(let reason):
            let current = try activePlan(refused: "roll back")
            guard let target = current.startedFrom else { throw .planState(experiment: key, state: current.state, refused: "roll back before its first step") }
            let ramp = try stepRamp(to: target)
            let before = stepText(current, current.step)
            let entry = takeRamp(ramp)
            plan?.state = .rolledBack
            plan?.lastDecision = RolloutPlan.Decision(at: context.now, action: "rollback", reason: reason)
            var applied = AppliedChange(action: .rollback, before: before,
                                        after: "rolled back to \(weightSummary): \(reason)",
                                        result: ChangeOutcome(message: "rolled `\(key)` back to \(weightSummary): \(reason)", ramp: ramp))
            applied.ramp = entry
            return applied
        default:
            preconditionFailure("applyPlan is given plan changes only")
        }
    }

    /// The ramp to a plan's first step when `start` is to apply it (an active plan no step of which applied yet); nil otherwise.
    func pendingFirstStep() throws(ExperimentError) -> RampPlan? {
        guard let plan, plan.step == 0, plan.state == .active, let first = plan.weights(ofStep: 1) else { return nil }
        return try stepRamp(to: first)
    }

    /// Applies the ramp to a plan's first step: the plan keeps the weights it started from and is at step 1 (`done` with one step).
    mutating func takeFirstStep(_ ramp: RampPlan) -> (plan: RampPlan, entry: (before: String, after: String)) {
        plan?.startedFrom = Dictionary(uniqueKeysWithValues: variants.map { ($0.name, $0.weight) })
        let entry = takeRamp(ramp)
        plan?.step = 1
        if plan?.isAtLastStep == true { plan?.state = .done }
        return (ramp, entry)
    }

    /// The minimal-move ramp (§3) to `weights` (a variant they do not name to 0 %), checked, not applied.
    private func stepRamp(to weights: [String: Weight]) throws(ExperimentError) -> RampPlan {
        try rampPlan(to: Dictionary(uniqueKeysWithValues: variants.map { ($0.name, weights[$0.name] ?? .zero) }))
    }

    /// Takes `ramp`'s layout; the `ramp` entry's words.
    private mutating func takeRamp(_ ramp: RampPlan) -> (before: String, after: String) {
        let before = HistoryText.format(.weights(namedWeights))
        variants = ramp.variants
        return (before, HistoryText.format(.weights(namedWeights)))
    }

    private func activePlan(refused: String) throws(ExperimentError) -> RolloutPlan {
        guard let plan else { throw .noPlan(experiment: key) }
        guard plan.state == .active else { throw .planState(experiment: key, state: plan.state, refused: refused) }
        return plan
    }

    /// `step 2/3 control=75,green=25`.
    private func stepText(_ plan: RolloutPlan, _ number: Int) -> String {
        "step \(number)/\(plan.steps.count) " + RolloutPlan.weightsText(plan.weights(ofStep: number) ?? plan.startedFrom ?? [:], order: variants.map(\.name))
    }
}
