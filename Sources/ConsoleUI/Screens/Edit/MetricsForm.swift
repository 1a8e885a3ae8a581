import ExperimentCore

/// Names the goal and guardrail metrics results judge the variants by (`M` on the detail screen; SPEC §12).
public struct MetricsForm: Equatable, Sendable {
    /// The form's fields, in Tab order.
    public enum Field: Equatable, Sendable, CaseIterable { case goal, direction, guardrails }

    public var experimentKey: String
    /// The revision the form was opened on; saving is refused if the experiment moved past it.
    public var revision: Int
    /// The metrics when the form opened.
    public var original: ExperimentMetrics
    /// The goal metric's name; empty means no goal.
    public var goal: TextField
    /// Which way the goal should move.
    public var direction: MetricDirection
    /// The guardrails as `M[:decrease]`, comma-separated; empty means none.
    public var guardrails: TextField
    public var focus = Field.goal
    /// Why Enter was refused, shown in the form until the next key.
    public var problem: String?

    /// The form on `experiment`, holding its current metrics (the goal's name selected).
    public init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
        original = experiment.metrics
        goal = TextField(experiment.metrics.goal?.metric ?? "")
        goal.selectAll()
        direction = experiment.metrics.goal?.direction ?? .increase
        guardrails = TextField(NamedMetric.listText(experiment.metrics.guardrails))
    }

    /// The metrics as typed: a goal written `M:decrease` keeps its own direction, else the chosen one.
    public var metrics: ExperimentMetrics {
        let name = goal.text.trimmingSpaces
        let parsed = NamedMetric.parse(name)
        let goal = name.isEmpty ? nil : parsed.metric != name ? parsed : NamedMetric(metric: name, direction: direction)
        return ExperimentMetrics(goal: goal, guardrails: NamedMetric.parseList(guardrails.text))
    }
}

extension MetricsForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        problem = nil
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("nothing changed"))
        case .submit?:
            return submit(context)
        case .nextField?, .previousField?:
            let fields = Field.allCases
            let index = fields.firstIndex(of: focus) ?? 0
            focus = fields[(index + (intent == .nextField ? 1 : fields.count - 1)) % fields.count]
            if focus == .goal { goal.selectAll() }
            if focus == .guardrails { guardrails.selectAll() }
        case .cycleNext? where focus == .direction, .cyclePrevious? where focus == .direction:
            direction = direction == .increase ? .decrease : .increase
        default:
            switch focus {
            case .goal: goal.type(key)
            case .guardrails: guardrails.type(key)
            case .direction: break
            }
        }
        return .none
    }

    /// Enter: the change, with the core's checks of the names run here so a mistake is shown before anything is saved.
    private mutating func submit(_ context: ScreenContext) -> ScreenReply {
        if let refusal = context.writeRefusal("set the metrics") { return .show(refusal) }
        let metrics = metrics
        if let problem = metrics.problems.first {
            self.problem = problem.message
            focus = problem.path.hasPrefix(".goal") ? .goal : .guardrails
            return .none
        }
        guard metrics != original else { return .close(saying: .info("unchanged; nothing saved")) }
        return .start(.apply(.setMetrics(experiment: experimentKey, metrics: metrics), expectedRevision: revision), status: .clear)
    }
}
