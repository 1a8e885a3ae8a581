import ExperimentCore

/// An experiment's `metrics` line, compact JSON in key order (read back by `ExperimentMetrics+Record.swift` in the core).

extension StoreWriter {
    /// `      "metrics": {...},\n` when the experiment names a metric; nothing otherwise, so stores without metrics keep their bytes.
    static func appendMetrics(_ metrics: ExperimentMetrics, to writer: inout ByteWriter) {
        guard !metrics.isAbsent else { return }
        writer.append("\n      \"metrics\": ")
        appendMetricsValue(metrics, to: &writer)
        writer.append(",")
    }

    /// The `metrics` value alone: `{"goal": ..., "guardrails": [...]}`.
    static func appendMetricsValue(_ metrics: ExperimentMetrics, to writer: inout ByteWriter) {
        guard metrics.unknownFields.isEmpty else {
            let guardrails: Field = ("guardrails", { writer in
                writer.append("[")
                for (index, guardrail) in metrics.guardrails.enumerated() {
                    if index > 0 { writer.append(", ") }
                    append(guardrail, to: &writer)
                }
                writer.append("]")
            })
            let goal: Field = ("goal", { writer in if let goal = metrics.goal { append(goal, to: &writer) } else { writer.append("null") } })
            return appendLine([goal, guardrails], unknown: metrics.unknownFields, to: &writer)
        }
        writer.append("{\"goal\": ")
        if let goal = metrics.goal { append(goal, to: &writer) } else { writer.append("null") }
        writer.append(", \"guardrails\": [")
        for (index, guardrail) in metrics.guardrails.enumerated() {
            if index > 0 { writer.append(", ") }
            append(guardrail, to: &writer)
        }
        writer.append("]}")
    }

    private static func append(_ named: NamedMetric, to writer: inout ByteWriter) {
        guard named.unknownFields.isEmpty else {
            return appendLine([("direction", textField(named.direction.rawValue)), ("metric", textField(named.metric))],
                              unknown: named.unknownFields, to: &writer)
        }
        writer.append("{\"direction\": ")
        writer.appendQuoted(named.direction.rawValue)
        writer.append(", \"metric\": ")
        writer.appendQuoted(named.metric)
        writer.append("}")
    }
}
