import ExperimentCore

/// An experiment's `plan` line, compact JSON in key order (read back by `RolloutPlan+Record.swift` in the core).

extension StoreWriter {
    /// `      "plan": {...},\n` when the experiment has a ramp plan; nothing otherwise, so stores without plans keep their bytes.
    static func appendPlan(_ plan: RolloutPlan?, to writer: inout ByteWriter) {
        guard let plan else { return }
        writer.append("\n      \"plan\": ")
        append(plan.jsonValue, to: &writer)
        writer.append(",")
    }
}
