import ExperimentCore
import Foundation

/// Records that carry fields a newer abconsole wrote (SPEC §11 rule 7): their known and unknown
/// fields together in key order, in the same layout as the rest. Records without any take the
/// writer's plain path, so their bytes are what they always were.
extension StoreWriter {
    /// One field of a record: its name and how to write its value.
    typealias Field = (name: String, write: (inout ByteWriter) -> Void)

    /// `fields` and `unknown` merged in byte order of their names, each `"name": value`, separated by `separator`.
    static func appendFields(_ fields: [Field], unknown: [String: JSONValue], separator: StaticString, to writer: inout ByteWriter) {
        var all = fields
        for (name, value) in unknown { all.append((name, { append(value, to: &$0) })) }
        all.sort { SubjectOrder.precedes($0.name, $1.name) }
        for (index, field) in all.enumerated() {
            if index > 0 { writer.append(separator) }
            writer.appendQuoted(field.name)
            writer.append(": ")
            field.write(&writer)
        }
    }

    /// A one-line record (`{"a": 1, "b": 2}`) with unknown fields.
    static func appendLine(_ fields: [Field], unknown: [String: JSONValue], to writer: inout ByteWriter) {
        writer.append("{")
        appendFields(fields, unknown: unknown, separator: ", ", to: &writer)
        writer.append("}")
    }

    /// A date field's writer.
    static func dateField(_ date: Date) -> (inout ByteWriter) -> Void {
        { writer in
            var dates = DateCache()
            dates.append(date, to: &writer)
        }
    }

    /// A string field's writer.
    static func textField(_ text: String?) -> (inout ByteWriter) -> Void {
        { writer in if let text { writer.appendQuoted(text) } else { writer.append("null") } }
    }

    static func appendWithUnknown(_ entry: WhitelistEntry, to writer: inout ByteWriter) {
        appendLine([("added_at", dateField(entry.addedAt)), ("added_by", textField(entry.addedBy)), ("note", textField(entry.note)),
                    ("subject", textField(entry.subject)), ("variant", textField(entry.variant))],
                   unknown: entry.unknownFields, to: &writer)
    }

    /// A history entry with unknown fields or written by a merge (`"by_merge": true`, between `before` and `experiment`).
    static func appendWithUnknown(_ entry: HistoryEntry, to writer: inout ByteWriter) {
        var fields: [Field] = [("action", textField(entry.action.rawValue)), ("after", textField(entry.after)), ("at", dateField(entry.at)),
                               ("before", textField(entry.before)), ("experiment", textField(entry.experiment)),
                               ("operator", textField(entry.operatorName))]
        if entry.byMerge { fields.append(("by_merge", { $0.append("true") })) }
        appendLine(fields, unknown: entry.unknownFields, to: &writer)
    }

    static func appendWithUnknown(_ variant: Variant, to writer: inout ByteWriter) {
        appendLine([("name", textField(variant.name)), ("payload", { append(variant.payload ?? .null, to: &$0) }),
                    ("ranges", { writer in
                        writer.append("[")
                        for (index, range) in variant.ranges.enumerated() {
                            writer.append(index == 0 ? "[" : ", [")
                            writer.append(decimal: range.start)
                            writer.append(", ")
                            writer.append(decimal: range.end)
                            writer.append("]")
                        }
                        writer.append("]")
                    }),
                    ("weight", { $0.append(utf8: variant.weight.description) })],
                   unknown: variant.unknownFields, to: &writer)
    }

    /// An experiment's known fields but its whitelist, split around it: the whitelist's place in key order.
    private static func experimentFields(_ experiment: Experiment) -> (head: [Field], tail: [Field]) {
        let known: [Field] = [
            ("control", textField(experiment.control)), ("created_at", dateField(experiment.createdAt)),
            ("description", textField(experiment.description)), ("key", textField(experiment.key)),
            ("revision", { $0.append(decimal: experiment.revision) }), ("salt", textField(experiment.salt)),
            ("status", textField(experiment.status.rawValue)), ("type", textField(experiment.type.rawValue)),
            ("updated_at", dateField(experiment.updatedAt)), ("updated_by", textField(experiment.updatedBy)),
            ("variants", { writer in
                writer.append("[")
                for (index, variant) in experiment.variants.enumerated() {
                    writer.append(index == 0 ? "\n        " : ",\n        ")
                    append(variant, to: &writer)
                }
                writer.append(experiment.variants.isEmpty ? "]" : "\n      ]")
            }),
            ("winner", textField(experiment.winner)),
        ]
        var fields = known
        if !experiment.metrics.isAbsent { fields.append(("metrics", { appendMetricsValue(experiment.metrics, to: &$0) })) }
        if let plan = experiment.plan { fields.append(("plan", { append(plan.jsonValue, to: &$0) })) }
        for (name, value) in experiment.unknownFields { fields.append((name, { append(value, to: &$0) })) }
        let head = fields.filter { SubjectOrder.precedes($0.name, "whitelist") }
        let tail = fields.filter { !SubjectOrder.precedes($0.name, "whitelist") }
        return (head, tail)
    }

    /// `appendHead` for an experiment with unknown fields.
    static func appendHeadWithUnknown(_ experiment: Experiment, to writer: inout ByteWriter) {
        writer.append("    {\n      ")
        let head = experimentFields(experiment).head
        appendFields(head, unknown: [:], separator: ",\n      ", to: &writer)
        writer.append(head.isEmpty ? "\"whitelist\": [" : ",\n      \"whitelist\": [")
    }

    /// `appendTail` for an experiment with unknown fields.
    static func appendTailWithUnknown(_ experiment: Experiment, hasEntries: Bool, to writer: inout ByteWriter) {
        writer.append(hasEntries ? "\n      ]" : "]")
        for field in experimentFields(experiment).tail.sorted(by: { SubjectOrder.precedes($0.name, $1.name) }) {
            writer.append(",\n      ")
            writer.appendQuoted(field.name)
            writer.append(": ")
            field.write(&writer)
        }
        writer.append("\n    }")
    }

    /// The store's unknown top-level fields whose names sort in `lower..<upper` (nil: open), each
    /// written after a `,\n  ` separator (`leading`) or followed by one.
    static func appendTopLevel(_ unknown: [String: JSONValue], after lower: String?, before upper: String?, leading: Bool, to writer: inout ByteWriter) {
        guard !unknown.isEmpty else { return }
        for name in unknown.keys.sorted(by: SubjectOrder.precedes) {
            if let lower, !SubjectOrder.precedes(lower, name) { continue }
            if let upper, !SubjectOrder.precedes(name, upper) { continue }
            if leading { writer.append(",\n  ") }
            writer.appendQuoted(name)
            writer.append(": ")
            append(unknown[name] ?? .null, to: &writer)
            if !leading { writer.append(",\n  ") }
        }
    }
}
