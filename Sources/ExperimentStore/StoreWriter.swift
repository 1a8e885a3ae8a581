import ExperimentCore
import Foundation

/// The canonical bytes of a store: pretty-printed JSON, sorted keys, one line per record.
///
/// Experiments are sorted by key and laid out one field a line; each variant, whitelist entry and
/// history entry is one line of its own (keys sorted inside it), whitelists sorted by subject
/// bytes. So the same snapshot always gives the same bytes, `git diff` shows one line per changed
/// record, and a million-entry whitelist takes 132 bytes an entry instead of Foundation's
/// seven-line 197. Every string goes through `appendQuoted`, so the text is always valid JSON
/// that any JSON reader (and `JSONDecoder`, the store's fallback reader) accepts.
enum StoreWriter {
    /// The whole store file, ending in a newline.
    static func data(of snapshot: StoreSnapshot) -> Data {
        let entries = snapshot.experiments.values.reduce(0) { $0 + $1.whitelist.count }
        var writer = ByteWriter(capacity: 4_096 + entries * 128 + snapshot.experiments.count * 1_024 + snapshot.history.count * 160)
        write(snapshot, to: &writer)
        return writer.data()
    }

    /// Appends the whole store file to `writer`, copying the experiments in `verbatim` from `original`.
    ///
    /// `verbatim` names experiments whose bytes in `original` are exactly what this writer gives for
    /// them (`StoreReading.verbatim`, less what a change touched); the rest are encoded.
    static func write(_ snapshot: StoreSnapshot, to writer: inout ByteWriter,
                      verbatim: [String: Range<Int>] = [:], from original: Data? = nil) {
        var dates = DateCache()
        writer.append("{\n  \"experiments\": [")
        for (index, experiment) in snapshot.sortedExperiments.enumerated() {
            writer.append(index == 0 ? "\n" : ",\n")
            if let span = verbatim[experiment.key], let original {
                original.withUnsafeBytes { writer.append(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[span])) }
            } else {
                append(experiment, to: &writer, dates: &dates)
            }
        }
        writer.append(snapshot.experiments.isEmpty ? "],\n  \"history\": [" : "\n  ],\n  \"history\": [")
        for (index, entry) in snapshot.history.enumerated() {
            writer.append(index == 0 ? "\n    " : ",\n    ")
            append(entry, to: &writer, dates: &dates)
        }
        writer.append(snapshot.history.isEmpty ? "],\n  \"revision\": " : "\n  ],\n  \"revision\": ")
        writer.append(decimal: snapshot.revision)
        writer.append(",\n  \"schema_version\": ")
        writer.append(decimal: snapshot.schemaVersion)
        writer.append("\n}\n")
    }

    private static func append(_ experiment: Experiment, to writer: inout ByteWriter, dates: inout DateCache) {
        appendHead(experiment, to: &writer, dates: &dates)
        let whitelist = experiment.whitelist
        for (index, position) in SubjectOrder.sortedIndices(of: whitelist).enumerated() {
            writer.append(StoreLayout.entrySeparator(first: index == 0))
            append(whitelist[position].value, to: &writer, dates: &dates)
        }
        appendTail(experiment, hasEntries: !whitelist.isEmpty, to: &writer)
    }

    /// An experiment's lines up to and including `"whitelist": [`.
    static func appendHead(_ experiment: Experiment, to writer: inout ByteWriter, dates: inout DateCache) {
        writer.append("    {\n      \"control\": ")
        writer.appendQuoted(experiment.control)
        writer.append(",\n      \"created_at\": ")
        dates.append(experiment.createdAt, to: &writer)
        writer.append(",\n      \"description\": ")
        writer.appendQuoted(experiment.description)
        writer.append(",\n      \"key\": ")
        writer.appendQuoted(experiment.key)
        writer.append(",\n      \"revision\": ")
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

    /// An experiment's lines after its last whitelist entry (if it `hasEntries`): the closing bracket, the winner, the brace.
    static func appendTail(_ experiment: Experiment, hasEntries: Bool, to writer: inout ByteWriter) {
        writer.append(hasEntries ? "\n      ],\n      \"winner\": " : "],\n      \"winner\": ")
        if let winner = experiment.winner { writer.appendQuoted(winner) } else { writer.append("null") }
        writer.append("\n    }")
    }

    /// The separator before a whitelist entry, by its place in the list.

    private static func append(_ variant: Variant, to writer: inout ByteWriter) {
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

    private static func append(_ entry: WhitelistEntry, to writer: inout ByteWriter, dates: inout DateCache) {
        writer.append("{\"added_at\": ")
        dates.append(entry.addedAt, to: &writer)
        writer.append(", \"added_by\": ")
        writer.appendQuoted(entry.addedBy)
        writer.append(", \"note\": ")
        writer.appendQuoted(entry.note)
        writer.append(", \"subject\": ")
        writer.appendQuoted(entry.subject)
        writer.append(", \"variant\": ")
        writer.appendQuoted(entry.variant)
        writer.append("}")
    }

    private static func append(_ entry: HistoryEntry, to writer: inout ByteWriter, dates: inout DateCache) {
        writer.append("{\"action\": ")
        writer.appendQuoted(entry.action.rawValue)
        writer.append(", \"after\": ")
        if let after = entry.after { writer.appendQuoted(after) } else { writer.append("null") }
        writer.append(", \"at\": ")
        dates.append(entry.at, to: &writer)
        writer.append(", \"before\": ")
        if let before = entry.before { writer.appendQuoted(before) } else { writer.append("null") }
        writer.append(", \"experiment\": ")
        writer.appendQuoted(entry.experiment)
        writer.append(", \"operator\": ")
        writer.appendQuoted(entry.operatorName)
        writer.append("}")
    }

    /// A payload as compact JSON, object keys in byte order, on the variant's line.
    private static func append(_ value: JSONValue, to writer: inout ByteWriter) {
        switch value {
        case .null: writer.append("null")
        case .bool(let flag): writer.append(flag ? "true" : "false")
        case .number(let number): writer.append(number: number)
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

    /// The last date written: entries added together share a timestamp, so most dates are a copy.
    struct DateCache {
        var date: Date?
        var text: [UInt8] = []

        mutating func append(_ date: Date, to writer: inout ByteWriter) {
            if date != self.date {
                StoreDate.format(date, into: &text)
                self.date = date
            }
            writer.append(UInt8(ascii: "\""))
            writer.append(text)
            writer.append(UInt8(ascii: "\""))
        }
    }
}
