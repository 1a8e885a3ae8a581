import Foundation

/// An experiment's `metrics` object: `{"goal": {"direction", "metric"} or null, "guardrails": [...]}`
/// (written by `ExperimentMetrics+Write.swift` in the store; absent when no metric is named).

extension NamedMetric: Codable {
    enum CodingKeys: String, CodingKey { case metric, direction }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        metric = try container.decode(String.self, forKey: .metric)
        direction = try container.decodeChoice(MetricDirection.self, forKey: .direction)
        unknownFields = try decoder.unknownFields(known: ["metric", "direction"])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(direction, forKey: .direction)
        try container.encode(metric, forKey: .metric)
        try encoder.encodeUnknown(unknownFields)
    }
}

extension ExperimentMetrics: Codable {
    enum CodingKeys: String, CodingKey { case goal, guardrails }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        goal = try container.decodeIfPresent(NamedMetric.self, forKey: .goal)
        guardrails = try container.decodeIfPresent([NamedMetric].self, forKey: .guardrails) ?? []
        unknownFields = try decoder.unknownFields(known: ["goal", "guardrails"])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(goal, forKey: .goal)
        try container.encode(guardrails, forKey: .guardrails)
        try encoder.encodeUnknown(unknownFields)
    }
}

// MARK: - The fast reader (`StoreReader`)

extension StoreReader {
    static func readMetrics(_ cursor: inout JSONCursor) -> ExperimentMetrics? {
        var goal: NamedMetric??, guardrails: [NamedMetric]?, unknown: [String: JSONValue] = [:]
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "goal": return once(&goal, cursor.consume(literal: "null") ? .some(nil) : readNamedMetric(&cursor).map { .some($0) })
            case "guardrails": return once(&guardrails, readArray(&cursor, readNamedMetric))
            default: return keepUnknown(&unknown, field, &cursor)
            }
        }
        guard complete else { return nil }
        var metrics = ExperimentMetrics(goal: goal ?? nil, guardrails: guardrails ?? [])
        metrics.unknownFields = unknown
        return metrics
    }

    static func readNamedMetric(_ cursor: inout JSONCursor) -> NamedMetric? {
        var metric: String?, direction: MetricDirection?, unknown: [String: JSONValue] = [:]
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "metric": return once(&metric, cursor.string())
            case "direction": return once(&direction, cursor.string().flatMap(MetricDirection.init(rawValue:)))
            default: return keepUnknown(&unknown, field, &cursor)
            }
        }
        guard complete, let metric, let direction else { return nil }
        var named = NamedMetric(metric: metric, direction: direction)
        named.unknownFields = unknown
        return named
    }
}
