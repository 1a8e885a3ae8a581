/// Which way a metric should move for a variant to be better (SPEC §12).
public enum MetricDirection: String, Hashable, Sendable, CaseIterable, Codable {
    /// Higher is better (the default): purchases, revenue.
    case increase
    /// Lower is better: refunds, latency, errors (GrowthBook's inverse metrics).
    case decrease
}

/// A metric named by an experiment, with the direction that counts as better.
public struct NamedMetric: Hashable, Sendable {
    public var metric: String
    public var direction: MetricDirection
    /// Fields a newer abconsole wrote that this one does not know, by name: kept (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    public init(metric: String, direction: MetricDirection = .increase) {
        self.metric = metric
        self.direction = direction
    }

    /// `purchase`, or `refund:decrease`: how the command line and the history write it.
    public var text: String { direction == .increase ? metric : "\(metric):\(direction.rawValue)" }

    /// `M`, `M:increase` or `M:decrease` as a named metric: everything before the first `:` is the
    /// name (`MetricName`'s rule), the word after it must be `increase` or `decrease`.
    public static func parse(_ text: String) throws(MetricTextError) -> NamedMetric {
        guard let colon = text.firstIndex(of: ":") else {
            if let problem = MetricName.problem(text) { throw MetricTextError(problem) }
            return NamedMetric(metric: text)
        }
        let name = String(text[..<colon]), word = String(text[text.index(after: colon)...])
        if let problem = MetricName.problem(name) { throw MetricTextError(problem) }
        guard let direction = MetricDirection(rawValue: word) else {
            throw MetricTextError("the direction after `:` in `\(text)` must be increase or decrease, not `\(word)`")
        }
        return NamedMetric(metric: name, direction: direction)
    }

    /// `purchase, refund:decrease` as named metrics: comma-separated `M[:decrease]`, spaces around each trimmed, empty items skipped.
    public static func parseList(_ text: String) throws(MetricTextError) -> [NamedMetric] {
        var metrics: [NamedMetric] = []
        for item in text.split(separator: ",") {
            let trimmed = String(item.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            if !trimmed.isEmpty { metrics.append(try parse(trimmed)) }
        }
        return metrics
    }

    /// `purchase, refund:decrease`: the list `parseList(_:)` reads back.
    public static func listText(_ metrics: [NamedMetric]) -> String {
        metrics.map(\.text).joined(separator: ", ")
    }
}

/// An experiment's goal metric and guardrail metrics (SPEC §12); stored, never exported to apps.
public struct ExperimentMetrics: Hashable, Sendable {
    /// The most guardrails an experiment may name.
    public static let maxGuardrails = 20

    public var goal: NamedMetric?
    public var guardrails: [NamedMetric]
    /// Fields of the `metrics` object a newer abconsole wrote that this one does not know: kept (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    public init(goal: NamedMetric? = nil, guardrails: [NamedMetric] = []) {
        self.goal = goal
        self.guardrails = guardrails
    }

    /// No goal and no guardrails.
    public static let none = ExperimentMetrics()

    public var isEmpty: Bool { goal == nil && guardrails.isEmpty }

    /// Nothing to store: no metric named and no unknown field (the experiment's `metrics` is left out).
    public var isAbsent: Bool { isEmpty && unknownFields.isEmpty }

    /// `new` keeping the unknown fields these metrics hold: the object's, and each goal's or guardrail's
    /// where `new` names the same metric without any (a change sets what it knows, rule 7 keeps the rest).
    public func keepingUnknownFields(in new: ExperimentMetrics) -> ExperimentMetrics {
        var kept = new
        if kept.unknownFields.isEmpty { kept.unknownFields = unknownFields }
        let old = Dictionary(named.map { ($0.metric, $0.unknownFields) }, uniquingKeysWith: { first, _ in first })
        func keep(_ named: inout NamedMetric) { if named.unknownFields.isEmpty { named.unknownFields = old[named.metric] ?? [:] } }
        if var goal = kept.goal {
            keep(&goal)
            kept.goal = goal
        }
        for index in kept.guardrails.indices { keep(&kept.guardrails[index]) }
        return kept
    }

    /// The goal, then the guardrails: every metric named, in the order results shows them.
    public var named: [NamedMetric] { (goal.map { [$0] } ?? []) + guardrails }

    /// The history's words: `goal purchase; guardrails refund:decrease, latency:decrease`; nil when none are named.
    public var summary: String? {
        guard !isEmpty else { return nil }
        var parts: [String] = []
        if let goal { parts.append("goal \(goal.text)") }
        if !guardrails.isEmpty { parts.append("guardrails " + guardrails.map(\.text).joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    /// What is wrong with these metrics as a store holds them, one sentence each: a name that is no
    /// id (empty, control characters), a metric named twice, too many guardrails.
    public var problems: [(path: String, message: String)] {
        problems { Identifier.isValidSubject($0) ? nil : "a metric name must be 1–256 characters without control characters" }
    }

    /// What is wrong with these metrics as a change sets them: `problems`, with every name held to `MetricName`'s rule.
    public var problemsToSet: [(path: String, message: String)] {
        problems(MetricName.problem)
    }

    private func problems(_ nameProblem: (String) -> String?) -> [(path: String, message: String)] {
        var problems: [(String, String)] = []
        var seen = Set<String>()
        for (index, named) in named.enumerated() {
            let path = goal != nil && index == 0 ? ".goal.metric" : ".guardrails[\(index - (goal == nil ? 0 : 1))].metric"
            if let problem = nameProblem(named.metric) {
                problems.append((path, problem))
            } else if !seen.insert(named.metric).inserted {
                problems.append((path, "metric `\(named.metric)` is named twice (a metric is the goal or a guardrail, once)"))
            }
        }
        if guardrails.count > Self.maxGuardrails {
            problems.append((".guardrails", "at most \(Self.maxGuardrails) guardrails, not \(guardrails.count)"))
        }
        return problems
    }
}
