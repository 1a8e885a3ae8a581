import ExperimentCore
import Foundation

/// A variant's line and its payload as compact JSON (read back by `Variant+Record.swift` in the core).

extension StoreWriter {
    static func append(_ variant: Variant, to writer: inout ByteWriter) {
        guard variant.unknownFields.isEmpty else { return appendWithUnknown(variant, to: &writer) }
        writer.append("{\"name\": ")
        writer.appendQuoted(variant.name)
        writer.append(", \"payload\": ")
        append(variant.payload ?? .null, to: &writer)
        writer.append(", \"ranges\": [")
        for (index, range) in variant.ranges.enumerated() {
            writer.append(index == 0 ? "[" : ", [")
            writer.append(decimal: range.start)
            writer.append(", ")
            writer.append(decimal: range.end)
            writer.append("]")
        }
        writer.append("], \"weight\": ")
        writer.append(utf8: variant.weight.description)
        writer.append("}")
    }

    /// A payload as compact JSON, object keys in byte order, on the variant's line.
    static func append(_ value: JSONValue, to writer: inout ByteWriter) {
        switch value {
        case .null: writer.append("null")
        case .bool(let flag): writer.append(flag ? "true" : "false")
        case .number(let number): writer.append(utf8: number.literal)
        case .string(let text): writer.appendQuoted(text)
        case .array(let items):
            writer.append("[")
            for (index, item) in items.enumerated() {
                if index > 0 { writer.append(", ") }
                append(item, to: &writer)
            }
            writer.append("]")
        case .object(let members):
            writer.append("{")
            for (index, key) in members.keys.sorted(by: SubjectOrder.precedes).enumerated() {
                if index > 0 { writer.append(", ") }
                writer.appendQuoted(key)
                writer.append(": ")
                append(members[key] ?? .null, to: &writer)
            }
            writer.append("}")
        }
    }
}
