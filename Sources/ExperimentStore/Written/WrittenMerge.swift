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
/// (`ABCONSOLE_PLAIN_MERGE=1` runs the plain path; `WrittenMergeTests` compares the two).
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
        // Rule 8, as `StoreMerge.merge` answers it: a side equal to BASE, or equal sides, give the other side.
        let same = Self.withFiles(stores) { files in
            (0..<3).map { side in WrittenBytes.same(files[side], 0..<files[side].count, files[(side + 1) % 3], 0..<files[(side + 1) % 3].count) }
        }
        if same[0] || same[1] || same[2] {
            let side = same[0] ? 2 : 1
            (conflicts, snapshot, self.stores, oursPath) = ([], stores[side].snapshot, stores, ours)
            pieces = Dictionary(uniqueKeysWithValues: stores[side].snapshot.experiments.keys.map { ($0, Piece.copy(side: side)) })
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
                func same(_ a: Int, _ b: Int) -> Bool { WrittenBytes.same(files[a], spans[a]?.object, files[b], spans[b]?.object) }
                // `StoreMerge.mergeExperiment`'s comparisons, by bytes.
                if same(1, 2) { pieces[key] = .copy(side: 1); return (ours, []) }
                if same(1, 0) { pieces[key] = .copy(side: 2); return (theirs, []) }
                if same(2, 0) { pieces[key] = .copy(side: 1); return (ours, []) }
                guard let oursValue = ours, let theirsValue = theirs else {
                    let (experiment, found) = StoreMerge.mergeChanged(base: base, ours: ours, theirs: theirs, history: history, chosen: chosen)
                    if experiment != nil { pieces[key] = .copy(side: ours == nil ? 2 : 1) }
                    return (experiment, found)
                }
                var (merged, found) = StoreMerge.mergeUnits(base: base, ours: oursValue, theirs: theirsValue, history: history, chosen: chosen)
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
    }

    /// Writes the merged store to `path` as `FileSystem.replaceAtomically` does; false when it held exactly that already.
    package func write(to path: String) throws(FileSystem.Failure) -> Bool {
        try FileSystem.replaceAtomically(path, known: (oursPath, stores[1].data)) { writer in
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
    }

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
        guard let before = WrittenStore(path: old), let after = WrittenStore(path: new) else { return nil }
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
}
