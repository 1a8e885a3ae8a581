import ExperimentCore
import ExperimentEditing
import Foundation

/// `StoreMerge.merge` of three store files the writer wrote, computed from their bytes.
///
/// The files are read as a transaction reads the experiments it does not change: validated, every
/// whitelist entry checked but left in the bytes. Equal bytes are equal values (the writer's form is
/// one layout per value), so an experiment whose bytes OURS and THEIRS agree on, or one side left as
/// BASE's, is decided by comparing bytes and copied from its file; one changed on both sides is
/// merged by `StoreMerge.mergeUnits` (its units but the whitelist) and `WrittenWhitelistMerge`
/// (entry lines, `mergeWhitelist` on those changed on both sides). The decisions are
/// `StoreMerge`'s, and the output is byte for byte `StoreFile.encode` of the plain merge's result
/// (`FastPaths` without `merge` runs the plain path; debug builds compare the two on small files, and
/// `WrittenMergeTests` on random ones).
package struct WrittenMerge {
    /// The merge's conflicts, as `StoreMerge.merge` lists them.
    package let conflicts: [MergeConflict]
    private let snapshot: StoreSnapshot
    private let stores: [WrittenStore]
    private let pieces: [String: Piece]
    private let oursPath: String

    /// How the output gets an experiment's bytes: copied from one file, or its head and tail encoded around merged entry lines.
    private enum Piece {
        case copy(side: Int)
        case merged([MergedEntryLine])
    }

    /// The merge of the files at `base`, `ours` and `theirs` by `context`'s operator; nil when one is
    /// not a valid store all in the writer's form, when its result breaks a rule, when an entry could
    /// name a variant the merged allocation lacks, or when a whitelist may need a `revert` entry: the
    /// plain path then decides and explains.
    package init?(base: String, ours: String, theirs: String, takingTheirs chosen: Set<String> = [], by context: ChangeContext) {
        guard let b = WrittenStore(path: base), let o = WrittenStore(path: ours), let t = WrittenStore(path: theirs) else { return nil }
        let stores = [b, o, t]
        // Rule 8 of `StoreMerge.merge`, asked of the whole files' bytes.
        let taken = Self.withFiles(stores) { files in
            StoreMerge.unchangedSide { one, two in
                WrittenBytes.same(files[one.rawValue], 0..<files[one.rawValue].count, files[two.rawValue], 0..<files[two.rawValue].count)
            }
        }
        if let taken {
            let side = taken.rawValue
            (conflicts, snapshot, self.stores, oursPath) = ([], stores[side].snapshot, stores, ours)
            pieces = Dictionary(uniqueKeysWithValues: stores[side].snapshot.experiments.keys.map { ($0, Piece.copy(side: side)) })
            checkAgainstPlainMerge(takingTheirs: chosen, by: context)
            return
        }
        // A side's whitelist changed without an entry of that side explaining it may need a `revert`
        // entry in words of its entries, which these snapshots leave in the bytes: the plain path decides.
        let unexplained = Self.withFiles(stores) { files in
            [1, 2].contains { side in
                let explained = StoreMerge.explainedExperiments(base: b.snapshot.history, side: stores[side].snapshot.history)
                return Set(b.spans.keys).union(stores[side].spans.keys).contains { key in
                    !explained.contains(key) && !WrittenBytes.same(files[0], b.spans[key]?.entries, files[side], stores[side].spans[key]?.entries)
                }
            }
        }
        if unexplained { return nil }
        var pieces: [String: Piece] = [:], usable = true
        let result = Self.withFiles(stores) { files -> MergeResult in
            StoreMerge.merge(base: b.snapshot, ours: o.snapshot, theirs: t.snapshot, takingTheirs: chosen, by: context) { base, ours, theirs, history, chosen in
                let key = (ours ?? theirs ?? base)?.key ?? ""
                let spans = stores.map { $0.spans[key] }
                // `StoreMerge.mergeExperiment` decides, comparing the sides' bytes; this only records where the bytes come from.
                let decided = StoreMerge.mergeExperiment(base: base, ours: ours, theirs: theirs, history: history, chosen: chosen) { one, two in
                    WrittenBytes.same(files[one.rawValue], spans[one.rawValue]?.object, files[two.rawValue], spans[two.rawValue]?.object)
                }
                if let side = decided.taken {
                    if decided.experiment != nil { pieces[key] = .copy(side: side.rawValue) }
                    return (decided.experiment, decided.conflicts)
                }
                // Merged unit by unit: the whitelists, left in the bytes, are merged line by line.
                var found = decided.conflicts
                guard let merged = decided.experiment, let oursValue = ours, let theirsValue = theirs else {
                    usable = false
                    return (decided.experiment, found)
                }
                let variants = Set(merged.variants.map(\.name))
                guard variants.isSuperset(of: oursValue.variants.map(\.name)), variants.isSuperset(of: theirsValue.variants.map(\.name)),
                      let lines = WrittenWhitelistMerge.merge(files, entries: spans.map { $0?.entries }, experiment: key, variants: variants,
                                                              chosen: chosen, conflicts: &found, passed: { stores[$0].file.release(before: $1) })
                else {
                    usable = false
                    return (merged, found)
                }
                pieces[key] = .merged(lines)
                return (merged, found)
            }
        }
        for store in stores { store.file.releaseAll() }
        // Every merged experiment's entries are valid (each is a valid file's, naming a merged variant):
        // the rest is validated as the plain path validates it.
        guard usable, StoreValidator.problems(in: StoreDocument(result.snapshot)).isEmpty else { return nil }
        (conflicts, snapshot, self.stores, self.pieces, oursPath) = (result.conflicts, result.snapshot, stores, pieces, ours)
        checkAgainstPlainMerge(takingTheirs: chosen, by: context)
    }

    /// Writes the merged store to `path` as `FileSystem.replaceAtomically` does; false when it held exactly that already.
    package func write(to path: String) throws(FileSystem.Failure) -> Bool {
        try FileSystem.replaceAtomically(path, known: (oursPath, stores[1].data)) { render(to: &$0) }
    }

    /// Appends the merged store's bytes to `writer`: each experiment copied from a file, merged from entry lines, or encoded.
    private func render(to writer: inout ByteWriter) {
        Self.withFiles(stores) { files in
            StoreWriter.write(snapshot, to: &writer) { experiment, writer in
                switch pieces[experiment.key] {
                case .copy(let side)?:
                    guard let span = stores[side].object(experiment.key) else { return false }
                    // In slices, each released once written, so a big experiment is never resident whole.
                    var start = span.lowerBound
                    while start < span.upperBound {
                        let end = min(span.upperBound, start + Self.slice)
                        writer.append(UnsafeBufferPointer(rebasing: files[side][start..<end]))
                        stores[side].file.release(before: end)
                        start = end
                    }
                case .merged(let lines)?:
                    var dates = StoreWriter.DateCache()
                    StoreWriter.appendHead(experiment, to: &writer, dates: &dates)
                    for (index, line) in lines.enumerated() {
                        writer.append(StoreLayout.entrySeparator(first: index == 0))
                        writer.append(UnsafeBufferPointer(rebasing: files[line.side][line.line]))
                        if index % 65_536 == 65_535 { stores[line.side].file.release(before: line.line.lowerBound) }
                    }
                    StoreWriter.appendTail(experiment, hasEntries: !lines.isEmpty, to: &writer)
                case nil:
                    return false
                }
                return true
            }
        }
    }

    /// Debug builds: for files up to `checkedSize` bytes together, the conflicts and bytes equal the
    /// plain merge's (`StoreMerge.merge` of the files read whole, encoded by `StoreWriter`).
    private func checkAgainstPlainMerge(takingTheirs chosen: Set<String>, by context: ChangeContext) {
        #if DEBUG
        FastPathTrace.note(.merge)
        guard stores.reduce(0, { $0 + $1.data.count }) <= Self.checkedSize else { return }
        guard let read = try? stores.map({ store throws(StoreError) in try StoreSnapshot.decode(store.data, path: "", fastPaths: .all) }) else {
            return assertionFailure("a file the byte merge read is not a valid store read whole")
        }
        let plain = StoreMerge.merge(base: read[0], ours: read[1], theirs: read[2], takingTheirs: chosen, by: context)
        var writer = ByteWriter(capacity: 4_096)
        render(to: &writer)
        let bytes = writer.data()
        assert(plain.conflicts == conflicts, "the byte merge found other conflicts than the plain merge")
        assert(StoreWriter.data(of: plain.snapshot) == bytes, "the byte merge wrote other bytes than the plain merge")
        #endif
    }

    /// The size of three files up to which a debug build checks the byte merge against the plain merge.
    private static let checkedSize = 256 << 10

    /// How many bytes of an experiment are copied at a time.
    private static let slice = 8 << 20

    /// `body` given the three files' bytes (BASE, OURS, THEIRS).
    private static func withFiles<Result>(_ stores: [WrittenStore], _ body: ([UnsafeBufferPointer<UInt8>]) -> Result) -> Result {
        stores[0].data.withUnsafeBytes { base in
            stores[1].data.withUnsafeBytes { ours in
                stores[2].data.withUnsafeBytes { theirs in
                    body([base, ours, theirs].map { $0.bindMemory(to: UInt8.self) })
                }
            }
        }
    }
}

/// `StoreDiff.changes` of two store files the writer wrote, read as `WrittenMerge` reads them.
package enum WrittenDiff {
    /// When NEW's history has entries OLD's lacks, the changes are those entries, so no whitelist is
    /// made values of; otherwise the units are compared, which needs no whitelist when each experiment in
    /// both files has the same entry bytes (equal whitelists; an experiment with equal bytes is
    /// skipped whole). Nil otherwise: the plain path reads both whole.
    package static func changes(old: String, new: String) -> [StoreChange]? {
        guard let before = WrittenStore(path: old), let after = WrittenStore(path: new), let changes = changes(before, after) else { return nil }
        #if DEBUG
        FastPathTrace.note(.diff)
        if before.data.count + after.data.count <= checkedSize,
           let plainOld = try? StoreSnapshot.decode(before.data, path: old, fastPaths: .all),
           let plainNew = try? StoreSnapshot.decode(after.data, path: new, fastPaths: .all) {
            assert(StoreDiff.changes(old: plainOld, new: plainNew) == changes, "the byte diff found other changes than the plain diff")
        }
        #endif
        return changes
    }

    /// The changes from `before` to `after`, or nil when their whitelists must be read.
    private static func changes(_ before: WrittenStore, _ after: WrittenStore) -> [StoreChange]? {
        let (o, n) = (before.snapshot, after.snapshot)
        if StoreDiff.addedEntries(old: o.history, new: n.history).isEmpty {
            let sameEntries = before.data.withUnsafeBytes { one in
                after.data.withUnsafeBytes { two in
                    o.experiments.keys.allSatisfy { key in
                        guard let right = after.spans[key] else { return true }
                        return WrittenBytes.same(one.bindMemory(to: UInt8.self), before.spans[key]?.entries,
                                                 two.bindMemory(to: UInt8.self), right.entries)
                    }
                }
            }
            guard sameEntries else { return nil }
        }
        return StoreDiff.changes(old: o, new: n)
    }

    /// The size of two files up to which a debug build checks the byte diff against the plain diff.
    private static let checkedSize = 256 << 10
}
