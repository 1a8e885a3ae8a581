import ExperimentCore
import ExperimentEditing
import Foundation

/// `ramp-plan`: sets, clears, pauses or resumes an experiment's ramp plan (SPEC §14), which a
/// scheduled `advance` carries out.
enum RampPlanCommand {
    static let hold = Option("--hold", "DURATION", "the least time a step stays: 30m, 24h, 2d (default 24h)")
    static let minSubjects = Option("--min-subjects", "N", "the analysed subjects of the current phase a step needs (default 1000)")
    static let onGuardrail = Option("--on-guardrail", "rollback|hold", "on a failing guardrail (default rollback)", choices: RolloutPlan.Reaction.allCases.map(\.rawValue))
    static let onSRM = Option("--on-srm", "hold|rollback", "on a sample-ratio mismatch (default hold)", choices: RolloutPlan.Reaction.allCases.map(\.rawValue))
    static let clear = Flag("--clear", "remove the plan (the weights stay)")
    static let pause = Flag("--pause", "keep the plan but let `advance` leave it alone")
    static let resume = Flag("--resume", "let `advance` carry the plan on again")
    static let options: [any DeclaredOption] = [hold, minSubjects, onGuardrail, onSRM, clear, pause, resume]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let key = try arguments.required("EXP")
        let steps = arguments.arguments("STEP")
        let modes: [(flag: Flag, change: ExperimentChange)] = [(clear, .clearPlan), (pause, .pausePlan), (resume, .resumePlan)]
        let chosen = modes.filter { arguments[$0.flag] }
        if let mode = chosen.first {
            let others = arguments.given([hold, minSubjects, onGuardrail, onSRM])
            guard chosen.count == 1, steps.isEmpty, others.isEmpty else {
                throw CLIError.usage("\(mode.flag.name) takes the experiment alone; give steps and options only to set a plan", command: nil)
            }
            return try context.apply(.edit(experiment: key, mode.change))
        }
        guard !steps.isEmpty else {
            throw CLIError.usage("give the plan's steps (e.g. `green=10 green=50 green=100`), or --clear, --pause or --resume", command: nil)
        }
        let experiment = try context.experiment(key, in: context.load())
        var plan = RolloutPlan(steps: try steps.enumerated().map { step throws(ExperimentError) in
            try RolloutPlan.weights(ofStep: step.element, number: step.offset + 1, variants: experiment.variants, control: experiment.control)
        })
        if let hold = arguments[Self.hold] {
            guard let seconds = RolloutPlan.parseDuration(hold) else {
                throw CLIError.usage("--hold `\(SafeOutput.text(hold))` is not a positive duration such as 30m, 24h or 2d", command: nil)
            }
            plan.holdSeconds = seconds
        }
        if let count = arguments[minSubjects] {
            guard let value = RolloutPlan.parseSubjectCount(count) else {
                throw CLIError.usage("--min-subjects `\(SafeOutput.text(count))` is not a whole number of subjects", command: nil)
            }
            plan.minSubjects = value
        }
        plan.onGuardrail = try arguments.choice(onGuardrail, as: RolloutPlan.Reaction.self) ?? plan.onGuardrail
        plan.onSRM = try arguments.choice(onSRM, as: RolloutPlan.Reaction.self) ?? plan.onSRM
        try context.apply(.setPlan(experiment: key, plan: plan))
    }

    /// The `show` lines of a plan: its options, each step (the current one marked), the state and the last decision.
    static func showLines(_ experiment: Experiment) -> [String] {
        guard let plan = experiment.plan else { return [] }
        let order = experiment.variants.map(\.name)
        var lines = ["ramp plan:   \(plan.state.rawValue.replacingOccurrences(of: "_", with: " ")), step \(plan.step) of \(plan.steps.count); "
            + "hold \(RolloutPlan.durationText(plan.holdSeconds)), at least \(plan.minSubjects) subjects a step, "
            + "guardrail → \(plan.onGuardrail.rawValue), sample-ratio mismatch → \(plan.onSRM.rawValue)"]
        for (index, step) in plan.steps.enumerated() {
            let mark = index + 1 == plan.step ? "▸" : " "
            lines.append("  \(mark) step \(index + 1): \(RolloutPlan.weightsText(step, order: order))")
        }
        if let decision = plan.lastDecision {
            lines.append("last decision: \(decision.action) at \(TimeLabel.utc(decision.at)): \(SafeOutput.text(decision.reason))")
        }
        return lines
    }
}
