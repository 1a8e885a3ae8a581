import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing
@testable import ExperimentStore
import ExperimentTestSupport

/// The merge computed from the files' bytes (`WrittenMerge`, `WrittenDiff`) against the plain path on
/// random stores: whenever it answers, its conflicts and its output bytes are exactly the plain merge's.
struct WrittenMergeTests {
    static let merger = ChangeContext(operatorName: "dana", now: Date(timeIntervalSince1970: 1_800_000_500))

    /// A side: `base` changed at random, whitelist entries of a shared pool of subjects above all
    /// (so both sides often change one entry), read back as a store file gives it.
    static func side<R: RandomNumberGenerator>(of base: StoreSnapshot, actor: String, using random: inout R) throws -> StoreSnapshot {
        var side = base
        let keys = base.experiments.keys.sorted()
        let at = Date(timeIntervalSince1970: 1_800_000_000 + Double(random.next() % 100))
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        var changed: [String] = []
        for _ in 0..<Int(random.next() % 6) {
            guard !keys.isEmpty, case let key = pick(keys), var experiment = side.experiments[key] else { continue }
            changed.append(key)
            let subjects = experiment.whitelist.keys.map(\.text).sorted().prefix(6) + (0..<4).map { "shared-\($0)" }
            let subject = pick(Array(subjects))
            switch random.next() % 11 {
            case 0, 1, 2:
                experiment.whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: pick(experiment.variants.map(\.name)),
                                                                         note: pick(["", "qa", actor]), addedBy: actor, addedAt: at)
            case 3: experiment.whitelist[SubjectID(subject)] = nil
            case 4: experiment.description = pick(["", actor, "shared"])
            case 5: if experiment.status == .running || experiment.status == .paused { experiment.status = pick([.running, .paused]) }
            case 6: experiment.unknownFields["x-" + pick(["a", actor])] = .string(actor)
            case 7: side.unknownFields["x-top"] = .string(pick(["a", actor]))
            case 9: experiment.plan = random.next() % 3 == 0 ? nil : RandomStore.plain.plan(using: &random)
            case 8:
                if experiment.variant(named: "extra") == nil { experiment.variants.append(Variant(name: "extra", weight: .zero, ranges: [])) }
            default:
                side.experiments[key] = nil
                continue
            }
            experiment.revision += 1
            experiment.updatedAt = at
            side.experiments[key] = experiment
        }
        if random.next() % 3 == 0, let key = keys.first, var copy = base.experiments[key] {
            copy.key = "new-" + pick(["a", actor])
            copy.salt = copy.key
            side.experiments[copy.key] = copy
            changed.append(copy.key)
        }
        // Most changes record an entry; one without (a revert, a hand edit) makes the merge write a `revert` entry.
        for key in changed where random.next() % 8 != 0 {
            side.history.append(HistoryEntry(at: at, operatorName: actor, experiment: key, action: .setDescription, before: nil, after: actor))
        }
        for _ in 0..<Int(random.next() % 3) {
            side.history.append(HistoryEntry(at: at, operatorName: actor, experiment: keys.first ?? "x", action: .setDescription,
                                             before: nil, after: pick(["a", actor])))
        }
        side.revision += Int(random.next() % 2)
        return try StoreFile.decode(StoreFile.encode(side), path: "side.json")
    }

    @Test func mergeFromBytesEqualsThePlainMerge() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        var answered = 0, conflicted = 0, reverted = 0
        for seed in 1...150 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            let store = seed % 5 == 0 ? RandomStore.awkward : RandomStore.plain
            let base = try StoreFile.decode(StoreFile.encode(store.snapshot(using: &random)), path: "base.json")
            let ours = try Self.side(of: base, actor: "ours", using: &random)
            let theirs = seed % 7 == 0 ? ours : try Self.side(of: base, actor: "theirs", using: &random)
            let paths = ["base", "ours", "theirs"].map { directory.path("\($0)-\(seed).json") }
            for (path, snapshot) in zip(paths, [base, ours, theirs]) { try StoreFile.encode(snapshot).write(to: URL(fileURLWithPath: path)) }

            let plain = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
            let fast = WrittenMerge(base: paths[0], ours: paths[1], theirs: paths[2], by: Self.merger)
            if plain.snapshot.history.contains(where: \.byMerge) { reverted += 1 }
            guard StoreValidator.problems(in: StoreDocument(plain.snapshot)).isEmpty else {
                #expect(fast == nil, "seed \(seed): a merge the plain path refuses is left to it")
                continue
            }
            guard let fast else { continue }
            answered += 1
            if !plain.conflicts.isEmpty { conflicted += 1 }
            #expect(fast.conflicts == plain.conflicts, "seed \(seed)")
            let out = directory.path("merged-\(seed).json")
            _ = try fast.write(to: out)
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == StoreFile.encode(plain.snapshot), "seed \(seed)")
            // Written over OURS, as git's driver does: the same bytes.
            let copy = directory.path("ours-copy-\(seed).json")
            try FileManager.default.copyItem(atPath: paths[1], toPath: copy)
            _ = try #require(WrittenMerge(base: paths[0], ours: copy, theirs: paths[2], by: Self.merger)).write(to: copy)
            #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == StoreFile.encode(plain.snapshot), "seed \(seed), over OURS")
        }
        #expect(answered >= 80, "most merges of stores the writer wrote are computed from bytes (\(answered))")
        #expect(conflicted >= 10, "some with conflicts (\(conflicted))")
        #expect(reverted >= 10, "some with a revert entry (\(reverted))")
    }

    @Test func diffFromBytesEqualsThePlainDiff() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        var answered = 0
        for seed in 1...40 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            let old = try StoreFile.decode(StoreFile.encode(RandomStore.plain.snapshot(using: &random)), path: "old.json")
            let new = try Self.side(of: old, actor: "new", using: &random)
            let paths = [directory.path("old-\(seed).json"), directory.path("new-\(seed).json")]
            try StoreFile.encode(old).write(to: URL(fileURLWithPath: paths[0]))
            try StoreFile.encode(new).write(to: URL(fileURLWithPath: paths[1]))
            let fast = WrittenDiff.changes(old: paths[0], new: paths[1])
            if !StoreDiff.addedEntries(old: old.history, new: new.history).isEmpty { #expect(fast != nil, "seed \(seed): NEW's history has new entries") }
            if let fast {
                #expect(fast == StoreDiff.changes(old: old, new: new), "seed \(seed)")
                answered += 1
            }
        }
        #expect(answered >= 10)
    }
}
