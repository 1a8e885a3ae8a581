import ExperimentCore
import ExperimentEditing
import Foundation

/// `set-metrics`: the goal and guardrail metrics results judge an experiment's variants by (SPEC §12).
enum MetricsCommands {
    static let goal = Option("--goal", "M[:decrease]", "the metric the experiment should move (higher is better unless :decrease)")
    static let guardrail = Option("--guardrail", "M[:decrease]", "a metric that must not get worse (higher is better unless :decrease)", repeatable: true)
    static let clear = Flag("--clear", "remove the goal and the guardrails (with --goal/--guardrail: set exactly those)")
    static let options: [any DeclaredOption] = [goal, guardrail, clear]

    /// `--goal` replaces the goal, `--guardrail` (all of them) replaces the guardrails, `--clear` starts from none.
    static func setMetrics(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let key = try arguments.required("EXP")
        let goal = try arguments[Self.goal].map { try named($0, Self.goal.name) }
        let guardrails = try arguments.all(guardrail).map { try named($0, guardrail.name) }
        let clear = arguments[Self.clear]
        guard clear || goal != nil || !guardrails.isEmpty else {
            throw CLIError.usage("give --goal, --guardrail or --clear", command: nil)
        }
        let current = clear ? ExperimentMetrics.none : try context.experiment(key, in: context.load()).metrics
        let metrics = ExperimentMetrics(goal: goal ?? current.goal, guardrails: guardrails.isEmpty ? current.guardrails : guardrails)
        try context.apply(.setMetrics(experiment: key, metrics: metrics))
    }

    /// `--goal`/`--guardrail`'s `M[:decrease]` by the core's rule; a name outside it or another direction is a usage error.
    private static func named(_ text: String, _ option: String) throws -> NamedMetric {
        do {
            return try NamedMetric.parse(text)
        } catch {
            throw CLIError.usage("\(option): " + SafeOutput.text(error.message), command: nil)
        }
    }

    /// The `show` lines naming the metrics, or none when the experiment names none.
    static func showLines(_ metrics: ExperimentMetrics) -> [String] {
        guard !metrics.isEmpty else { return [] }
        var lines = ["goal:        " + (metrics.goal.map(words) ?? "none")]
        if !metrics.guardrails.isEmpty { lines.append("guardrails:  " + metrics.guardrails.map(words).joined(separator: ", ")) }
        return lines
    }

    /// `purchase (higher is better)`.
    static func words(_ named: NamedMetric) -> String {
        "\(SafeOutput.text(named.metric)) (\(named.direction == .increase ? "higher" : "lower") is better)"
    }
}

/// `show --json`: the experiment's store encoding with `"metrics"` and `"plan"` always present (`goal` null when
/// none is named; `plan` null without one, otherwise SPEC §14's shape: the store's less `started_from`).
struct ShowJSON: Encodable {
    let experiment: Experiment

    private enum Keys: String, CodingKey { case metrics, plan }

    func encode(to encoder: any Encoder) throws {
        try experiment.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(experiment.metrics, forKey: .metrics)
        var plan = experiment.plan?.jsonValue ?? .null
        if case .object(var fields) = plan {
            fields["started_from"] = nil
            plan = .object(fields)
        }
        try container.encode(plan, forKey: .plan)
    }
}
