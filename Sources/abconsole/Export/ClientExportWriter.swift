import ExperimentCore
import ExperimentStore

/// `export --format client` written byte by byte: the client snapshot (`ClientSnapshotDocument`,
/// SPEC §9) as compact JSON with keys in byte order, HTML-safe, and a final newline.
///
/// `{"experiments":[{"control","key","salt","status","type","variants":[{"name","payload","ranges",
/// "weight"}],"whitelist":[{"subject","variant"}],"winner"}],"format","revision","schema_version"}`;
/// a variant's fields a newer abconsole wrote go along, in key order. The whitelist entries come
/// from `entries`, in subject order, so a million of them never sit in memory as values.
struct ClientExportWriter {
    let revision: Int
    /// Sorted by key.
    let experiments: [Experiment]
    let entries: ExportEntries

    /// Writes the whole snapshot.
    func write(into writer: inout ByteWriter) throws {
        writer.append("{\"experiments\":[")
        for (index, experiment) in experiments.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            try write(experiment, into: &writer)
        }
        writer.append("],\"format\":")
        writer.appendHTMLSafeQuoted(ClientSnapshotDocument.formatName)
        writer.append(",\"revision\":")
        writer.append(decimal: revision)
        writer.append(",\"schema_version\":")
        writer.append(decimal: StoreSnapshot.currentSchemaVersion)
        writer.append("}\n")
    }

    private func write(_ experiment: Experiment, into writer: inout ByteWriter) throws {
        writer.append("{\"control\":")
        writer.appendHTMLSafeQuoted(experiment.control)
        writer.append(",\"key\":")
        writer.appendHTMLSafeQuoted(experiment.key)
        writer.append(",\"salt\":")
        writer.appendHTMLSafeQuoted(experiment.salt)
        writer.append(",\"status\":")
        writer.appendHTMLSafeQuoted(experiment.status.rawValue)
        writer.append(",\"type\":")
        writer.appendHTMLSafeQuoted(experiment.type.rawValue)
        writer.append(",\"variants\":[")
        for (index, variant) in experiment.variants.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            Self.write(variant, into: &writer)
        }
        writer.append("],\"whitelist\":[")
        var first = true
        try entries.forEach(in: experiment) { subject, variant in
            writer.append(first ? "{\"subject\":" : ",{\"subject\":")
            writer.appendHTMLSafeQuoted(utf8: subject)
            writer.append(",\"variant\":")
            writer.appendHTMLSafeQuoted(utf8: variant)
            writer.append(UInt8(ascii: "}"))
            first = false
        }
        writer.append("],\"winner\":")
        if let winner = experiment.winner { writer.appendHTMLSafeQuoted(winner) } else { writer.append("null") }
        writer.append(UInt8(ascii: "}"))
    }

    /// `{"name":N,"payload":P,"ranges":[[a,b]],"weight":W}`, with the fields a newer abconsole wrote among them.
    private static func write(_ variant: Variant, into writer: inout ByteWriter) {
        let weight = JSONNumber(variant.weight.percent) ?? 0
        guard variant.unknownFields.isEmpty else {
            var members = variant.unknownFields
            members["name"] = .string(variant.name)
            members["payload"] = variant.payload ?? .null
            members["ranges"] = .array(variant.ranges.map { .array([.number(JSONNumber(integerLiteral: $0.start)), .number(JSONNumber(integerLiteral: $0.end))]) })
            members["weight"] = .number(weight)
            writer.appendHTMLSafe(.object(members))
            return
        }
        writer.append("{\"name\":")
        writer.appendHTMLSafeQuoted(variant.name)
        writer.append(",\"payload\":")
        writer.appendHTMLSafe(variant.payload ?? .null)
        writer.append(",\"ranges\":[")
        for (index, range) in variant.ranges.enumerated() {
            writer.append(index > 0 ? ",[" : "[")
            writer.append(decimal: range.start)
            writer.append(UInt8(ascii: ","))
            writer.append(decimal: range.end)
            writer.append(UInt8(ascii: "]"))
        }
        writer.append(UInt8(ascii: "]"))
        writer.append(",\"weight\":")
        writer.append(utf8: weight.literal)
        writer.append(UInt8(ascii: "}"))
    }
}
