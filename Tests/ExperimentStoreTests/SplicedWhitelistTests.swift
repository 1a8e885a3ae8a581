import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing
import ExperimentTestSupport
@testable import ExperimentStore

/// A change to an experiment whose whitelist stays in the file but for the entries the change
/// names (`SplicedWhitelist`): the file it writes is byte for byte the plain writer's, and the
/// change decides exactly as it does on a plain read.
struct SplicedWhitelistTests {
    /// One change of every kind to `key`, touching listed subjects (first, last, any), new ones
    /// (sorting first, last, between) and unlisted ones (refused), and changes that touch no entry.
    static func changes<R: RandomNumberGenerator>(to key: String, in snapshot: StoreSnapshot, using random: inout R) -> [Change] {
        let listed = (snapshot.experiments[key]?.whitelist.keys.map(\.text) ?? []).sorted(by: SubjectOrder.precedes)
        let any = listed.randomElement(using: &random) ?? "nobody"
        let note = RandomStore.plain.text(using: &random)
        let payload = RandomStore.awkward.payload(using: &random)
        return [
            .whitelistAdd(experiment: key, subject: RandomStore.plain.subject(using: &random, index: 99), variant: "treatment", note: note),
            .whitelistAdd(experiment: key, subject: "!first", variant: "control", note: "QA"),
            .whitelistAdd(experiment: key, subject: "\u{10FFFF}-last", variant: "control", note: ""),
            .whitelistAdd(experiment: key, subject: "escaped \"quote\\", variant: "treatment", note: "tab\there"),
            .whitelistAdd(experiment: key, subject: any, variant: "control", note: note, replace: true),
            .whitelistAdd(experiment: key, subject: any, variant: "control", note: note),
            .whitelistAdd(experiment: key, subject: "ghost-variant", variant: "ghost", note: ""),
            .whitelistNote(experiment: key, subject: any, note: "a new note, \u{7F} and 日本"),
            .whitelistNote(experiment: key, subject: "nobody-listed", note: "x"),
            .whitelistRemove(experiment: key, subject: listed.first ?? "nobody"),
            .whitelistRemove(experiment: key, subject: listed.last ?? "nobody"),
            .whitelistRemove(experiment: key, subject: any),
            .whitelistRemove(experiment: key, subject: "nobody-listed"),
            .ramp(experiment: key, weights: ["control": Weight(buckets: Int(random.next() % 10_001)), "treatment": .zero]),
            .setPayload(experiment: key, variant: "treatment", payload: payload),
            .setDescription(experiment: key, description: note),
            .start(experiment: key),
            .pause(experiment: key),
            .resolve(experiment: key, winner: "treatment"),
            .addVariant(experiment: key, name: "third", payload: nil),
            .setMetrics(experiment: key, metrics: .none),
            .resalt(experiment: key, salt: "salt-\(random.next() % 100)"),
        ]
    }

    /// The file a transaction leaves after `change`, and what a plain read + apply + full encoding gives.
    static func compare(_ change: Change, original: Data, path: String) throws {
        try original.write(to: URL(fileURLWithPath: path))
        var expected = try StoreFile.decode(original, path: path)
        var expectedOutcome: Result<ChangeOutcome, StoreError>
        do { expectedOutcome = .success(try expected.apply(change, context: Fixture.carol)) } catch { expectedOutcome = .failure(.refused(error)) }
        var outcome: Result<ChangeOutcome, StoreError>
        do { outcome = .success(try StoreFile(path: path).apply(change, context: Fixture.carol)) } catch { outcome = .failure(error) }
        #expect(outcome == expectedOutcome, "\(change)")
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == (outcome.isSuccess ? StoreFile.encode(expected) : original), "\(change)")
    }

    /// Random stores, every kind of change to every experiment, through real transactions.
    @Test(arguments: 1...10 as ClosedRange<UInt64>)
    func everyChangeWritesThePlainWritersBytes(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let snapshot = (seed % 2 == 0 ? RandomStore.plain : RandomStore.awkward).snapshot(using: &random)
        let original = StoreFile.encode(snapshot)
        let directory = try TempDirectory()
        defer { directory.remove() }
        for key in snapshot.experiments.keys.sorted() {
            for change in Self.changes(to: key, in: snapshot, using: &random) {
                try Self.compare(change, original: original, path: directory.path("experiments.json"))
            }
        }
    }

    /// The fast path itself, without the transaction around it: read leaving the entries in the
    /// file, splice, apply, write; the bytes equal the plain writer's for every change it takes.
    @Test(arguments: 1...10 as ClosedRange<UInt64>)
    func splicedWritesEqualThePlainWriter(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let snapshot = RandomStore.plain.snapshot(using: &random)
        let original = StoreFile.encode(snapshot)
        // Not behind the newest entry: a change recorded earlier goes in among the entries, and the
        // transaction then reads the history whole instead of copying it (`VerbatimHistoryTests`).
        let context = ChangeContext(operatorName: "carol", now: max(Fixture.t2, snapshot.history.map(\.at).max() ?? Fixture.t2))
        for key in snapshot.experiments.keys.sorted() {
            for change in Self.changes(to: key, in: snapshot, using: &random) {
                guard let subjects = change.whitelistSubjects else { continue }
                var (spliced, verbatim, history) = try StoreSnapshot.read(original, path: "s.json", recognising: StoreWriter.writtenSpan, keepingEntriesOf: [])
                let span = try #require(verbatim[key], "the writer's experiment is recognised")
                let index = try #require(spliced.experiments.index(forKey: key))
                #expect(spliced.experiments.values[index].whitelist.isEmpty, "its entries stay in the file")
                let splice = try #require(SplicedWhitelist(&spliced.experiments.values[index], span: span, subjects: subjects, in: original))
                #expect(spliced.experiments.values[index].whitelist.keys.allSatisfy { subjects.map { SubjectID($0) }.contains($0) })
                var plain = try StoreFile.decode(original, path: "s.json")
                let plainOutcome = try? plain.apply(change, context: context)
                let splicedOutcome = try? spliced.apply(change, context: context)
                #expect(splicedOutcome == plainOutcome, "\(change)")
                guard plainOutcome != nil else { continue }
                #expect(splice.fits(spliced.experiments.values[index]), "\(change)")
                verbatim[key] = nil
                var writer = ByteWriter(capacity: 1_024)
                StoreWriter.write(spliced, to: &writer, verbatim: verbatim, history: history, from: original, spliced: [key: splice])
                #expect(writer.data() == StoreFile.encode(plain), "\(change)")
            }
        }
    }

    /// The benchmark's case in small: a change of every kind to the one huge experiment (non-ASCII subjects among them).
    @Test func everyChangeToTheHugeExperimentWritesThePlainWritersBytes() throws {
        let snapshot = try StoreShapes.hugeBesideSmall(huge: 2_000)
        let original = StoreFile.encode(snapshot)
        let directory = try TempDirectory()
        defer { directory.remove() }
        var random = SplitMix64(seed: 77)
        for change in Self.changes(to: "big", in: snapshot, using: &random) + [.whitelistRemove(experiment: "big", subject: "é-7")] {
            try Self.compare(change, original: original, path: directory.path("experiments.json"))
        }
    }

    /// Entries with fields a newer abconsole wrote are not the writer's line form: the experiment is
    /// read whole and written with them kept.
    @Test func entriesWithUnknownFieldsAreKept() throws {
        let text = String(decoding: StoreFile.encode(try StoreShapes.hugeBesideSmall(huge: 50)), as: UTF8.self)
        let old = "\"subject\": \"sub-000003\", \"variant\": \"treatment\"}"
        #expect(text.components(separatedBy: old).count == 2)
        let original = Data(text.replacingOccurrences(of: old, with: "\"subject\": \"sub-000003\", \"variant\": \"treatment\", \"zz_future\": [1]}").utf8)
        let directory = try TempDirectory()
        defer { directory.remove() }
        for change in [Change.whitelistRemove(experiment: "big", subject: "sub-000004"), .setDescription(experiment: "big", description: "d")] {
            try Self.compare(change, original: original, path: directory.path("experiments.json"))
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory.path("experiments.json"))), as: UTF8.self).contains("\"zz_future\": [1]"))
        }
    }
}

private extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
