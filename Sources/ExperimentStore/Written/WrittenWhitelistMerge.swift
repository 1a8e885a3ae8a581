import ExperimentCore
import ExperimentEditing
import Foundation

/// One line of the merged whitelist: an entry's line in one of the merge's files (0 BASE, 1 OURS, 2 THEIRS).
struct MergedEntryLine {
    var side: Int
    var line: Range<Int>
}

/// `StoreMerge.mergeWhitelist` over the three files' entry lines, walked in subject order.
///
/// Equal lines are equal entries (the writer's form is one line per entry value), so a subject
/// whose line THEIRS left as BASE's or wrote as OURS did keeps OURS's line, and one only THEIRS
/// changed takes THEIRS's, as `mergeWhitelist` settles them; any other subject is settled by
/// `mergeWhitelist` itself on its three decoded entries. The caller makes sure no entry names a
/// variant the merged allocation lacks (rule 6 then has nothing to do).
enum WrittenWhitelistMerge {
    /// The merged entries as lines, appending their conflicts to `conflicts` in subject order; nil
    /// when a line does not read as the writer's. `passed` hears now and then how far each file is read.
    static func merge(_ files: [UnsafeBufferPointer<UInt8>], entries: [Range<Int>?], experiment key: String, variants: Set<String>,
                      chosen: Set<String>, conflicts: inout [MergeConflict], passed: (_ side: Int, _ offset: Int) -> Void = { _, _ in }) -> [MergedEntryLine]? {
        var cursors = (0..<3).map { WrittenEntryLines(files[$0], entries: entries[$0]) }
        var heads = (0..<3).map { cursors[$0].next() }
        var merged: [MergedEntryLine] = []
        merged.reserveCapacity(WrittenEntryLines.count(files[1], entries: entries[1]) + 16)
        var found: [MergeConflict] = []
        func subject(_ side: Int) -> UnsafeBufferPointer<UInt8>? {
            heads[side].map { UnsafeBufferPointer(rebasing: files[side][$0.subject]) }
        }
        var walked = 0
        while heads.contains(where: { $0 != nil }) {
            walked += 1
            if walked % 65_536 == 0 { for side in 0..<3 { passed(side, cursors[side].offset) } }
            // The least subject among the three heads, and each side's line for it.
            var least: Int?
            for side in 0..<3 {
                guard let candidate = subject(side) else { continue }
                if let current = least.flatMap(subject), !SubjectOrder.precedes(candidate, current) { continue }
                least = side
            }
            guard let least, let leastSubject = subject(least) else { return nil }
            var lines: [Range<Int>?] = [nil, nil, nil]
            for side in 0..<3 {
                guard let head = heads[side], let bytes = subject(side), !SubjectOrder.precedes(leastSubject, bytes) else { continue }
                lines[side] = head.line
                heads[side] = cursors[side].next()
            }
            // Rule 8 for one entry, its lines compared by bytes.
            let side: Int?
            if let taken = StoreMerge.unchangedSide({ WrittenBytes.same(files[$0.rawValue], lines[$0.rawValue], files[$1.rawValue], lines[$1.rawValue]) }) {
                side = taken.rawValue
            } else {
                guard let settled = settle(files, lines, experiment: key, variants: variants, chosen: chosen, conflicts: &found) else { return nil }
                side = settled
            }
            if let side, let line = lines[side] { merged.append(MergedEntryLine(side: side, line: line)) }
        }
        // `mergeWhitelist` lists its conflicts by subject.
        conflicts += found.sorted { SubjectOrder.precedes($0.subject ?? "", $1.subject ?? "") }
        return merged
    }

    /// The side whose entry `mergeWhitelist` keeps for one subject changed differently on both sides
    /// (nil: none); nil-nil when a line does not read.
    private static func settle(_ files: [UnsafeBufferPointer<UInt8>], _ lines: [Range<Int>?], experiment key: String, variants: Set<String>,
                               chosen: Set<String>, conflicts: inout [MergeConflict]) -> Int?? {
        var entries: [WhitelistEntry?] = []
        for side in 0..<3 {
            guard let line = lines[side] else { entries.append(nil); continue }
            guard let entry = StoreReader.whitelistEntry(line: UnsafeBufferPointer(rebasing: files[side][line])) else { return nil }
            entries.append(entry)
        }
        func whitelist(_ entry: WhitelistEntry?) -> [SubjectID: WhitelistEntry] { entry.map { [SubjectID($0.subject): $0] } ?? [:] }
        let result = StoreMerge.mergeWhitelist(base: whitelist(entries[0]), ours: whitelist(entries[1]), theirs: whitelist(entries[2]),
                                               experiment: key, variants: variants, conflicts: &conflicts, chosen: chosen)
        guard let kept = result.values.first else { return .some(nil) }
        return .some(kept == entries[1] ? 1 : 2)
    }
}

extension WrittenEntryLines {
    /// How many entries there are (their lines), to size the merged list once.
    static func count(_ bytes: UnsafeBufferPointer<UInt8>, entries: Range<Int>?) -> Int {
        guard let entries, !entries.isEmpty, let base = bytes.baseAddress else { return 0 }
        var count = 0, position = entries.lowerBound
        while position < entries.upperBound, let newline = memchr(base + position, 0x0A, entries.upperBound - position) {
            count += 1
            position = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }
}
