import ExperimentCore
import ExperimentEditing

/// Names the goal and guardrail metrics results judge the variants by (`M` on the detail screen; SPEC §12).
package struct MetricsForm: Equatable, Sendable {
    /// The form's fields, in Tab order.
    package enum Field: Equatable, Sendable, CaseIterable { case goal, direction, guardrails }

    package var experimentKey: String
    /// The revision the form was opened on; saving is refused if the experiment moved past it.
    package var revision: Int
    /// The metrics when the form opened.
    package var original: ExperimentMetrics
    /// The goal metric's name; empty means no goal.
    package var goal: TextField
    /// Which way the goal should move.
    package var direction: MetricDirection
    /// The guardrails as `M[:decrease]`, comma-separated; empty means none.
    package var guardrails: TextField
    package var focus = Field.goal
    /// Why Enter was refused, shown in the form until the next key.
    package var problem: String?

    /// The form on `experiment`, holding its current metrics (the goal's name selected).
    package init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
        original = experiment.metrics
        goal = TextField(experiment.metrics.goal?.metric ?? "")
        goal.selectAll()
        direction = experiment.metrics.goal?.direction ?? .increase
        guardrails = TextField(NamedMetric.listText(experiment.metrics.guardrails))
    }

    /// Why the typed metrics were refused, and the field to fix.
    package struct Refusal: Error, Equatable, Sendable {
        package var field: Field
        package var message: String
    }

    /// The metrics as typed: a goal written `M:decrease` keeps its own direction, else the chosen one;
    /// a field left as it opened keeps the metrics it showed. Throws the core's sentence for a name or direction it refuses.
    package func metrics() throws(Refusal) -> ExperimentMetrics {
        let name = goal.text.trimmingSpaces
        var named: NamedMetric?
        if name == original.goal?.metric {
            named = NamedMetric(metric: name, direction: direction)
        } else if !name.isEmpty {
            do {
                let parsed = try NamedMetric.parse(name)
                named = name.contains(":") ? parsed : NamedMetric(metric: parsed.metric, direction: direction)
            } catch {
                throw Refusal(field: .goal, message: error.message)
            }
        }
        guard guardrails.text != NamedMetric.listText(original.guardrails) else { return ExperimentMetrics(goal: named, guardrails: original.guardrails) }
        do {
            return ExperimentMetrics(goal: named, guardrails: try NamedMetric.parseList(guardrails.text))
        } catch {
            throw Refusal(field: .guardrails, message: error.message)
        }
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
        let metrics: ExperimentMetrics
        do {
            metrics = try self.metrics()
        } catch {
            (problem, focus) = (error.message, error.field)
            return .none
        }
        guard metrics != original else { return .close(saying: .info("unchanged; nothing saved")) }
        if let problem = metrics.problemsToSet.first {
            self.problem = problem.message
            focus = problem.path.hasPrefix(".goal") ? .goal : .guardrails
            return .none
        }
        return .start(.apply(.setMetrics(experiment: experimentKey, metrics: metrics), expectedRevision: revision), status: .clear)
    }
}
