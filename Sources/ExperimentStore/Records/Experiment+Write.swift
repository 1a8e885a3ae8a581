import ExperimentCore
import Foundation

/// An experiment's lines: its fields one a line, a line per variant and whitelist entry (read back by `Experiment+Record.swift` in the core).

extension StoreWriter {
    static func append(_ experiment: Experiment, to writer: inout ByteWriter, dates: inout DateCache) {
        appendHead(experiment, to: &writer, dates: &dates)
        let whitelist = experiment.whitelist
        for (index, position) in SubjectOrder.sortedIndices(of: whitelist).enumerated() {
            writer.append(StoreLayout.entrySeparator(first: index == 0))
            append(whitelist[position].value, to: &writer, dates: &dates)
        }
        appendTail(experiment, hasEntries: !experiment.whitelist.isEmpty, to: &writer)
    }

    /// An experiment's lines up to and including `"whitelist": [`.
    static func appendHead(_ experiment: Experiment, to writer: inout ByteWriter, dates: inout DateCache) {
        guard experiment.unknownFields.isEmpty else { return appendHeadWithUnknown(experiment, to: &writer) }
        writer.append("    {\n      \"control\": ")
        writer.appendQuoted(experiment.control)
        writer.append(",\n      \"created_at\": ")
        dates.append(experiment.createdAt, to: &writer)
        writer.append(",\n      \"description\": ")
        writer.appendQuoted(experiment.description)
        writer.append(",\n      \"key\": ")
        writer.appendQuoted(experiment.key)
        writer.append(",")
        appendMetrics(experiment.metrics, to: &writer)
        appendPlan(experiment.plan, to: &writer)
        writer.append("\n      \"revision\": ")
        writer.append(decimal: experiment.revision)
        writer.append(",\n      \"salt\": ")
        writer.appendQuoted(experiment.salt)
        writer.append(",\n      \"status\": ")
        writer.appendQuoted(experiment.status.rawValue)
        writer.append(",\n      \"type\": ")
        writer.appendQuoted(experiment.type.rawValue)
        writer.append(",\n      \"updated_at\": ")
        dates.append(experiment.updatedAt, to: &writer)
        writer.append(",\n      \"updated_by\": ")
        writer.appendQuoted(experiment.updatedBy)
        writer.append(",\n      \"variants\": [")
        for (index, variant) in experiment.variants.enumerated() {
            writer.append(index == 0 ? "\n        " : ",\n        ")
            append(variant, to: &writer)
        }
        writer.append(experiment.variants.isEmpty ? "],\n      \"whitelist\": [" : "\n      ],\n      \"whitelist\": [")
    }

    /// An experiment's lines after its last whitelist entry: the closing bracket, the winner, the brace.
    static func appendTail(_ experiment: Experiment, hasEntries: Bool, to writer: inout ByteWriter) {
        guard experiment.unknownFields.isEmpty else { return appendTailWithUnknown(experiment, hasEntries: hasEntries, to: &writer) }
        writer.append(hasEntries ? "\n      ],\n      \"winner\": " : "],\n      \"winner\": ")
        if let winner = experiment.winner { writer.appendQuoted(winner) } else { writer.append("null") }
        writer.append("\n    }")
    }
}
