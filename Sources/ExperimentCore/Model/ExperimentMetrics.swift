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

    /// `M`, `M:increase` or `M:decrease` as a named metric; a trailing word other than these two is part of the name.
    public static func parse(_ text: String) -> NamedMetric {
        for direction in MetricDirection.allCases where text.hasSuffix(":" + direction.rawValue) {
            return NamedMetric(metric: String(text.dropLast(direction.rawValue.count + 1)), direction: direction)
        }
        return NamedMetric(metric: text)
    }

    /// `purchase, refund:decrease` as named metrics: comma-separated `M[:decrease]`, spaces around each trimmed, empty items skipped.
    public static func parseList(_ text: String) -> [NamedMetric] {
        text.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            .filter { !$0.isEmpty }.map(parse)
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

    /// What is wrong with these metrics, one sentence each: a name breaking the rule, a metric named twice, too many guardrails.
    public var problems: [(path: String, message: String)] {
        var problems: [(String, String)] = []
        var seen = Set<String>()
        for (index, named) in named.enumerated() {
            let path = goal != nil && index == 0 ? ".goal.metric" : ".guardrails[\(index - (goal == nil ? 0 : 1))].metric"
            if !Identifier.isValidSubject(named.metric) {
                problems.append((path, "a metric name must be 1–256 characters without control characters"))
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
