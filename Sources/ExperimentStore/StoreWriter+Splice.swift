import ExperimentCore
import Foundation

/// The whitelist of the one experiment a change edits, left in the file but for the entries the
/// change may touch: the save copies the other entries' lines and encodes only those.
///
/// A change to an experiment with a million entries reads, checks and writes their bytes as it does
/// an untouched experiment's, and keeps as values only the entries of the subjects it names
/// (`Change.whitelistSubjects`); `Experiment.apply` is the same either way, so what the change
/// decides does not depend on which path saves it.
struct SplicedWhitelist {
    /// The entries in the original file: from just after the whitelist's `[` to the end of its last line.
    let entries: Range<Int>
    /// Each subject the change may touch, with its line in `entries` or the empty range where it would go.
    let cuts: [(subject: SubjectID, slot: Range<Int>)]
    /// The variants the copied entries were checked against.
    let variants: Set<String>

    /// Reads the entries of `subjects` from the copy of `experiment` at `span` (the writer's bytes,
    /// `StoreWriter.writtenSpan`) into its whitelist, which the transaction's read left empty; nil
    /// when a line is not the writer's after all.
    init?(_ experiment: inout Experiment, span: Range<Int>, subjects: [String], in original: Data) {
        var dates = StoreWriter.DateCache()
        var head = ByteWriter(capacity: 1_024)
        StoreWriter.appendHead(experiment, to: &head, dates: &dates)
        var tail = ByteWriter(capacity: 128)
        StoreWriter.appendTail(experiment, hasEntries: true, to: &tail)
        let start = span.lowerBound + head.count
        let found: (entries: Range<Int>, cuts: [(SubjectID, Range<Int>, WhitelistEntry?)])? = original.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard start < span.upperBound else { return nil }
            // An empty whitelist's `[` is followed by its `]`; any other by its first entry's line.
            let entries = bytes[start] == UInt8(ascii: "]") ? start..<start : start..<(span.upperBound - tail.count)
            guard entries.lowerBound <= entries.upperBound else { return nil }
            var cuts: [(SubjectID, Range<Int>, WhitelistEntry?)] = []
            for subject in Set(subjects.map { SubjectID($0) }) {
                guard let slot = StoreReader.writtenEntrySlot(for: subject, in: bytes, entries: entries) else { return nil }
                cuts.append((subject, slot.slot, slot.entry))
            }
            return (entries, cuts)
        }
        guard let found, experiment.whitelist.isEmpty else { return nil }
        for (subject, _, entry) in found.cuts { experiment.whitelist[subject] = entry }
        entries = found.entries
        cuts = found.cuts.map { ($0.0, $0.1) }.sorted { ($0.slot.lowerBound, $0.subject) < ($1.slot.lowerBound, $1.subject) }
        variants = Set(experiment.variants.map(\.name))
    }

    /// Whether `experiment`, as the change left it, can be saved by splicing: its whitelist holds
    /// only subjects the change named, and every variant the copied entries were checked against is still there.
    func fits(_ experiment: Experiment) -> Bool {
        experiment.whitelist.keys.allSatisfy { key in cuts.contains { $0.subject == key } }
            && variants.isSubset(of: experiment.variants.map(\.name))
    }
}

extension StoreWriter {
    /// `experiment`'s lines, its whitelist spliced: the lines of `splice.entries` copied from
    /// `original` but at its cuts, where the entries of `experiment.whitelist` are encoded.
    static func append(_ experiment: Experiment, splicing splice: SplicedWhitelist, from original: Data,
                       to writer: inout ByteWriter, dates: inout DateCache) {
        appendHead(experiment, to: &writer, dates: &dates)
        var written = false
        original.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = splice.entries.lowerBound
            for cut in splice.cuts {
                copyLines(bytes, position..<cut.slot.lowerBound, written: &written, to: &writer)
                if let entry = experiment.whitelist[cut.subject] {
                    writer.append(StoreLayout.entrySeparator(first: !written))
                    append(entry, to: &writer, dates: &dates)
                    written = true
                }
                position = cut.slot.upperBound
            }
            copyLines(bytes, position..<splice.entries.upperBound, written: &written, to: &writer)
        }
        appendTail(experiment, hasEntries: written, to: &writer)
    }

    /// Copies whole entry lines, each with the separator before it; the first one's separator is
    /// written anew, since the line before it may be gone or new.
    private static func copyLines(_ bytes: UnsafeBufferPointer<UInt8>, _ lines: Range<Int>, written: inout Bool, to writer: inout ByteWriter) {
        guard !lines.isEmpty else { return }
        let separator = StoreLayout.entrySeparator(first: bytes[lines.lowerBound] == UInt8(ascii: "\n")).utf8CodeUnitCount
        writer.append(StoreLayout.entrySeparator(first: !written))
        writer.append(UnsafeBufferPointer(rebasing: bytes[(lines.lowerBound + separator)..<lines.upperBound]))
        written = true
    }
}
