import Foundation

/// Where an experiment the writer wrote sits in its file: the whole object and its whitelist entries.
package struct WrittenExperiment: Sendable {
    /// The experiment's bytes, indentation included (what a save copies).
    package var object: Range<Int>
    /// Its whitelist entries, from just after `[` to the end of the last entry's line (empty when there are none).
    package var entries: Range<Int>
}

/// Reading a store whose whitelists stay in its bytes: what a merge or a diff of big stores reads
/// (`StoreMerge`'s units are compared by bytes where the writer wrote them, see `docs/git.md`).
extension StoreSnapshot {
    /// The validated snapshot of `data` with every experiment's whitelist left in the bytes, each
    /// entry checked as the validator checks it (as a transaction reads the experiments it does not
    /// change), and where each experiment and its entries sit; nil unless the writer wrote every
    /// experiment and the history and the store is valid (the caller then reads it whole, which
    /// decides and explains).
    package static func readLeavingEntries(_ data: Data, path: String, recognising written: @escaping StoreReader.WrittenSpan)
        -> (snapshot: StoreSnapshot, spans: [String: WrittenExperiment])? {
        var entries: [String: Range<Int>] = [:]
        let recognise: StoreReader.WrittenSpan = { experiment, bytes, object, range in
            guard let span = written(experiment, bytes, object, range) else { return nil }
            entries[experiment.key] = range
            return span
        }
        guard var reading = StoreReader.reading(from: data, recognising: recognise, keepingEntriesOf: []),
              let history = reading.history, let decoded = StoreReader.historyEntries(in: data, history) else { return nil }
        reading.document.history = decoded
        guard reading.verbatim.count == reading.document.experiments.count,
              let snapshot = try? validated(reading.document, path: path) else { return nil }
        var spans: [String: WrittenExperiment] = [:]
        for (key, object) in reading.verbatim {
            guard let range = entries[key] else { return nil }
            spans[key] = WrittenExperiment(object: object, entries: range)
        }
        return (snapshot, spans)
    }
}

extension StoreReader {
    /// The history entries `written` locates in `data` (checked there by `checkedWrittenHistory`); nil when they do not read.
    package static func historyEntries(in data: Data, _ written: WrittenHistory) -> [HistoryEntry]? {
        if written.count == 0 { return [] }
        return data.withUnsafeBytes { raw -> [HistoryEntry]? in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            // The entries start just after the history's `[`.
            cursor.rewind(to: written.entries.lowerBound - 1)
            guard let entries = readHistoryEntries(&cursor, reserving: written.count), entries.count == written.count else { return nil }
            return entries
        }
    }

    /// The whitelist entry whose line (`{…}`) is `line`; nil when it does not read whole.
    package static func whitelistEntry(line: UnsafeBufferPointer<UInt8>) -> WhitelistEntry? {
        var cursor = JSONCursor(line)
        guard let entry = readWhitelistEntry(&cursor), cursor.isAtEnd() else { return nil }
        return entry
    }
}
