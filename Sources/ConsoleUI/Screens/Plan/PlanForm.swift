import ExperimentCore
import ExperimentEditing

/// Sets, pauses, resumes or clears an experiment's ramp plan (`A` on the list and the detail; SPEC §14).
package struct PlanForm: Equatable, Sendable {
    /// What saving the form does.
    package enum Action: String, Equatable, Sendable {
        case set, pause, resume, clear
    }

    package var experimentKey: String
    /// The revision the form was opened on; saving is refused if the experiment moved past it.
    package var revision: Int
    /// The actions that apply to the experiment now, `set` first when it applies.
    package var actions: [Action]
    package var action: Action
    /// 0 the action, then (setting a plan) 1 the steps, 2 the hold, 3 the subjects a step needs.
    package var focus = 0
    package var steps: TextField
    package var hold: TextField
    package var minSubjects: TextField

    /// The form on `experiment`, filled with its plan's values, or the defaults.
    package init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
        actions = Self.actions(for: experiment)
        action = actions.first ?? .set
        let order = experiment.variants.map(\.name)
        steps = TextField(experiment.plan.map { $0.steps.map { RolloutPlan.weightsText($0, order: order) }.joined(separator: " ") } ?? "")
        hold = TextField(RolloutPlan.durationText(experiment.plan?.holdSeconds ?? RolloutPlan.defaultHoldSeconds))
        minSubjects = TextField(String(experiment.plan?.minSubjects ?? RolloutPlan.defaultMinSubjects))
    }

    /// The actions the core would accept on `experiment` now.
    static func actions(for experiment: Experiment) -> [Action] {
        var actions: [Action] = []
        if experiment.refusalText(for: .setPlan(RolloutPlan(steps: []))) == nil { actions.append(.set) }
        if experiment.plan?.state == .active, experiment.refusalText(for: .pausePlan) == nil { actions.append(.pause) }
        if experiment.plan?.state == .paused, experiment.refusalText(for: .resumePlan) == nil { actions.append(.resume) }
        if experiment.plan != nil { actions.append(.clear) }
        return actions
    }

    /// The number of focusable rows: the action alone, or with the three fields when setting.
    var fieldCount: Int { action == .set ? 4 : 1 }
}

extension PlanForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("nothing changed"))
        case .submit?:
            return submit(context)
        case .nextField?, .previousField?:
            focus = (focus + (intent == .nextField ? 1 : fieldCount - 1)) % fieldCount
            // A field is all selected when focused: typing replaces it, ←/→ edit it.
            switch focus {
            case 1: steps.selectAll()
            case 2: hold.selectAll()
            case 3: minSubjects.selectAll()
            default: break
            }
        case .cycleNext? where focus == 0, .cyclePrevious? where focus == 0:
            guard let index = actions.firstIndex(of: action), !actions.isEmpty else { return .none }
            action = actions[(index + (intent == .cycleNext ? 1 : actions.count - 1)) % actions.count]
        default:
            switch focus {
            case 1: steps.type(key)
            case 2: hold.type(key)
            case 3: minSubjects.type(key)
            default: break
            }
        }
        return .none
    }

    private func submit(_ context: ScreenContext) -> ScreenReply {
        if let refusal = context.writeRefusal("change a ramp plan") { return .show(refusal) }
        guard let experiment = context.snapshot.experiments[experimentKey] else {
            return .close(saying: .error(ExperimentError.unknownExperiment(experimentKey).message))
        }
        let change: ExperimentChange
        switch action {
        case .pause: change = .pausePlan
        case .resume: change = .resumePlan
        case .clear: change = .clearPlan
        case .set:
            switch plan(for: experiment) {
            case .success(let plan): change = .setPlan(plan)
            case .failure(let problem): return .show(.error(problem.message))
            }
        }
        return .start(.apply(.edit(experiment: experimentKey, change), expectedRevision: revision), status: .clear)
    }

    /// The plan the fields describe, or the sentence saying what to fix.
    func plan(for experiment: Experiment) -> Result<RolloutPlan, ExperimentError> {
        let parsed: [[String: Weight]]
        do {
            parsed = try RolloutPlan.steps(steps.text, variants: experiment.variants, control: experiment.control)
        } catch {
            return .failure(error)
        }
        guard !parsed.isEmpty else { return .failure(.invalidPlan("give the plan's steps, e.g. `green=10 green=50 green=100`")) }
        guard let seconds = RolloutPlan.parseDuration(hold.text) else {
            return .failure(.invalidPlan("the hold `\(hold.text)` is not a positive duration such as 30m, 24h or 2d"))
        }
        guard let count = RolloutPlan.parseSubjectCount(minSubjects.text) else {
            return .failure(.invalidPlan("the subjects a step needs, `\(minSubjects.text)`, is not a whole number"))
        }
        var plan = RolloutPlan(steps: parsed, holdSeconds: seconds, minSubjects: count)
        if let current = experiment.plan { (plan.onGuardrail, plan.onSRM) = (current.onGuardrail, current.onSRM) }
        return .success(plan)
    }
}
