import ExperimentCore
import Foundation

/// The canonical bytes of a store: pretty-printed JSON, sorted keys, one line per record.
///
/// Experiments are sorted by key and laid out one field a line; each variant, whitelist entry and
/// history entry is one line of its own (keys sorted inside it), whitelists sorted by subject
/// bytes. So the same snapshot always gives the same bytes, `git diff` shows one line per changed
/// record, and a whitelist entry takes one line instead of Foundation's seven. Every string goes
/// through `appendQuoted`, so the text is always valid JSON that any JSON reader (and
/// `JSONDecoder`, the store's fallback reader) accepts. Each record's line is written in
/// `Records/<Record>+Write.swift`, beside nothing else; its reader and checks are in the core's
/// `Store/Records/<Record>+Record.swift`.
enum StoreWriter {
    /// The whole store file, ending in a newline.
    static func data(of snapshot: StoreSnapshot) -> Data {
        let entries = snapshot.experiments.values.reduce(0) { $0 + $1.whitelist.count }
        var writer = ByteWriter(capacity: 4_096 + entries * 128 + snapshot.experiments.count * 1_024 + snapshot.history.count * 160)
        write(snapshot, to: &writer)
        return writer.data()
    }

    /// Appends the whole store file to `writer`, copying the experiments in `verbatim` and the
    /// history entries in `history` from `original`.
    ///
    /// `verbatim` names experiments whose bytes in `original` are exactly what this writer gives for
    /// them (`StoreReading.verbatim`, less what a change touched); the rest are encoded. `history`
    /// (`StoreReading.history`) holds entries written exactly so that precede the snapshot's
    /// history, which then holds only the entries appended since. The experiments in `spliced` copy
    /// their whitelist lines but for the entries their change touched (`SplicedWhitelist`).
    ///
    /// `pieces`, when given, writes an experiment's bytes itself (a merge copying them from one of
    /// its files) and answers true; false leaves it to the rest.
    static func write(_ snapshot: StoreSnapshot, to writer: inout ByteWriter,
                      verbatim: [String: Range<Int>] = [:], history copied: WrittenHistory? = nil, from original: Data? = nil,
                      spliced: [String: SplicedWhitelist] = [:], pieces: ((Experiment, inout ByteWriter) -> Bool)? = nil) {
        var dates = DateCache()
        let unknown = snapshot.unknownFields
        writer.append("{\n  ")
        appendTopLevel(unknown, after: nil, before: "experiments", leading: false, to: &writer)
        writer.append("\"experiments\": [")
        for (index, experiment) in snapshot.sortedExperiments.enumerated() {
            writer.append(index == 0 ? "\n" : ",\n")
            if let pieces, pieces(experiment, &writer) {
                continue
            } else if let span = verbatim[experiment.key], let original {
                original.withUnsafeBytes { writer.append(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[span])) }
            } else if let splice = spliced[experiment.key], let original {
                append(experiment, splicing: splice, from: original, to: &writer, dates: &dates)
            } else {
                append(experiment, to: &writer, dates: &dates)
            }
        }
        writer.append(snapshot.experiments.isEmpty ? "]" : "\n  ]")
        appendTopLevel(unknown, after: "experiments", before: "history", leading: true, to: &writer)
        writer.append(",\n  \"history\": [")
        var first = true
        if let copied, let original, !copied.entries.isEmpty {
            original.withUnsafeBytes { writer.append(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[copied.entries])) }
            first = false
        }
        for entry in snapshot.history {
            writer.append(StoreLayout.historySeparator(first: first))
            append(entry, to: &writer, dates: &dates)
            first = false
        }
        writer.append(first ? "]" : StoreLayout.historyEnd)
        appendTopLevel(unknown, after: "history", before: "revision", leading: true, to: &writer)
        writer.append(",\n  \"revision\": ")
        writer.append(decimal: snapshot.revision)
        appendTopLevel(unknown, after: "revision", before: "schema_version", leading: true, to: &writer)
        writer.append(",\n  \"schema_version\": ")
        writer.append(decimal: snapshot.schemaVersion)
        appendTopLevel(unknown, after: "schema_version", before: nil, leading: true, to: &writer)
        writer.append("\n}\n")
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
