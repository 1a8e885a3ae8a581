import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing
@testable import ExperimentStore

/// Saving by copying unchanged experiments: the bytes are always exactly a full encoding's.
struct VerbatimSaveTests {
    static func written(_ snapshot: StoreSnapshot, verbatim: [String: Range<Int>], from original: Data) -> Data {
        var writer = ByteWriter(capacity: 1_024)
        StoreWriter.write(snapshot, to: &writer, verbatim: verbatim, from: original)
        return writer.data()
    }

    /// One change to one experiment, picked at random among those a store accepts.
    static func change<R: RandomNumberGenerator>(to key: String, in snapshot: StoreSnapshot, using random: inout R) -> Change {
        let note = RandomStore.awkward.text(using: &random)
        switch random.next() % 4 {
        case 0: return .whitelistAdd(experiment: key, subject: RandomStore.awkward.subject(using: &random, index: 99), variant: "control", note: note)
        case 1: return .setPayload(experiment: key, variant: "treatment", payload: RandomStore.awkward.payload(using: &random))
        case 2: return .ramp(experiment: key, weights: ["control": Weight(buckets: Int(random.next() % 10_001)), "treatment": .zero])
        default:
            let subject = snapshot.experiments[key]?.whitelist.keys.first?.text ?? "nobody"
            return .whitelistRemove(experiment: key, subject: subject)
        }
    }

    /// Random stores, random changes to one experiment: copying the others gives a full encoding's bytes.
    /// With plain text every experiment is recognised; with awkward text (escapes) some are encoded again.
    @Test(arguments: 1...16 as ClosedRange<UInt64>)
    func splicedSavesEqualFullEncodings(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let plain = seed % 2 == 0
        let snapshot = (plain ? RandomStore.plain : RandomStore.awkward).snapshot(using: &random)
        let original = StoreFile.encode(snapshot)
        let reading = try #require(StoreReader.reading(from: original, recognising: StoreWriter.writtenSpan))
        if plain { #expect(Set(reading.verbatim.keys) == Set(snapshot.experiments.keys), "every experiment the writer wrote is recognised") }
        var changed = try StoreFile.decode(original, path: "s.json")
        let open = changed.experiments.values.filter { $0.status != .resolved }.map(\.key).sorted()
        var verbatim = reading.verbatim
        if let key = open.randomElement(using: &random) {
            let context = ChangeContext(operatorName: "carol", now: Fixture.t2)
            if (try? changed.apply(Self.change(to: key, in: changed, using: &random), context: context)) == nil {
                try changed.apply(.whitelistAdd(experiment: key, subject: "fallback", variant: "control", note: ""), context: context)
            }
            verbatim[key] = nil
        }
        #expect(Self.written(changed, verbatim: verbatim, from: original) == (StoreFile.encode(changed)))
    }

    @Test func foundationsLayoutIsNeverCopied() throws {
        var random = SplitMix64(seed: 5)
        let snapshot = RandomStore.awkward.snapshot(using: &random)
        let legacy = try StoreCoding.encoder().encode(StoreDocument(snapshot)) + Data([0x0A])
        #expect(try #require(StoreReader.reading(from: legacy, recognising: StoreWriter.writtenSpan)).verbatim.isEmpty)
    }

    /// Same meaning, other bytes: only the tampered experiment is encoded again.
    @Test(arguments: [
        ("an extra space in an entry", "\"note\": \"second\"", "\"note\":  \"second\""),
        ("an escaped slash", "\"note\": \"second\"", "\"note\": \"sec\\/ond\""),
        ("an escape the writer also uses", "\"note\": \"second\"", "\"note\": \"se\\\"cond\""),
        ("entries out of order", "\"subject\": \"u1\"", "\"subject\": \"u3\""),
        ("two fields swapped", "\"control\": \"off\",\n      \"created_at\": \"2026-01-01T00:00:00Z\"",
         "\"created_at\": \"2026-01-01T00:00:00Z\",\n      \"control\": \"off\""),
        ("a trailing space on the experiment's first line", "    {\n      \"control\": \"off\"", "    { \n      \"control\": \"off\""),
        ("a weight written as 30.0", "\"weight\": 30}", "\"weight\": 30.0}"),
    ])
    func tamperedExperimentsAreEncodedAgain(label: String, old: String, new: String) throws {
        let base = try StoreFileTests.base()
        let text = String(decoding: StoreFile.encode(base), as: UTF8.self)
        #expect(text.components(separatedBy: old).count == 2, "\(label): the fixture holds the text once")
        let tampered = Data(text.replacingOccurrences(of: old, with: new).utf8)
        let reading = try #require(StoreReader.reading(from: tampered, recognising: StoreWriter.writtenSpan), "\(label)")
        #expect(reading.verbatim.count == 1, "\(label): the other experiment is still copied")
        let snapshot = try StoreFile.decode(tampered, path: "s.json")
        #expect(Self.written(snapshot, verbatim: reading.verbatim, from: tampered) == (StoreFile.encode(snapshot)), "\(label)")
    }

    /// A change to a small experiment of each shape, through a real transaction: the transaction's
    /// read keeps only that experiment's entries and none of the history, copies every other and
    /// the history, and the file is a full encoding's.
    @Test(arguments: StoreShapes.names)
    func aChangeToASmallExperimentOfEveryShapeWritesAFullEncoding(shape: String) throws {
        let snapshot = try StoreShapes.named(shape)
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let original = StoreFile.encode(snapshot)
        try original.write(to: URL(fileURLWithPath: path))
        let reading = try #require(StoreReader.reading(from: original, recognising: StoreWriter.writtenSpan, keepingEntriesOf: [StoreShapes.small]))
        #expect(Set(reading.verbatim.keys) == Set(snapshot.experiments.keys))
        #expect(reading.history?.count == snapshot.history.count && reading.document.history.isEmpty, "the history is checked, not kept")
        for experiment in reading.document.experiments {
            #expect(experiment.whitelist == (experiment.key == StoreShapes.small ? snapshot.experiments[experiment.key]?.whitelist : [:]))
        }
        var expected = snapshot
        let change = Change.whitelistAdd(experiment: StoreShapes.small, subject: "added-1", variant: "control", note: "a note of more than 15 bytes")
        try expected.apply(change, context: Fixture.carol)
        try StoreFile(path: path).apply(change, context: Fixture.carol)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == StoreFile.encode(expected))
    }

    /// Copied experiments whose bytes are not the writer's after all are read whole and encoded,
    /// and entries the validator refuses are refused as a full read refuses them, nothing written.
    @Test(arguments: [
        ("a trailing space on the big experiment's key line", "\"key\": \"big\",", "\"key\": \"big\", ", true),
        ("an unknown variant in a copied entry", "\"subject\": \"sub-000001\", \"variant\": \"treatment\"}",
         "\"subject\": \"sub-000001\", \"variant\": \"ghost\"}", false),
        ("a DEL in a copied subject", "\"subject\": \"sub-000002\"", "\"subject\": \"sub-000002\u{7F}\"", false),
    ])
    func copiedExperimentsAreCheckedAsAFullReadChecksThem(label: String, old: String, new: String, valid: Bool) throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let text = String(decoding: StoreFile.encode(try StoreShapes.hugeBesideSmall(huge: 200)), as: UTF8.self)
        #expect(text.components(separatedBy: old).count == 2, "\(label): the fixture holds the text once")
        let tampered = Data(text.replacingOccurrences(of: old, with: new).utf8)
        try tampered.write(to: URL(fileURLWithPath: path))
        let store = StoreFile(path: path)
        let change = Change.whitelistAdd(experiment: StoreShapes.small, subject: "added-1", variant: "control", note: "")
        if valid {
            var expected = try store.load()
            try expected.apply(change, context: Fixture.carol)
            try store.apply(change, context: Fixture.carol)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == StoreFile.encode(expected), "\(label)")
        } else {
            var loadError: StoreError?, applyError: StoreError?
            do { _ = try store.load() } catch { loadError = error }
            do { try store.apply(change, context: Fixture.carol) } catch { applyError = error }
            #expect(loadError != nil && applyError == loadError, "\(label)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == tampered, "\(label): nothing written")
        }
    }

    /// Through a real transaction: a change to one experiment leaves the whole file canonical.
    @Test func aChangeOnATamperedFileWritesTheCanonicalBytes() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let text = String(decoding: StoreFile.encode(try StoreFileTests.base()), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"note\": \"second\"", with: "\"note\":\"second\"").utf8).write(to: URL(fileURLWithPath: path))
        let store = StoreFile(path: path)
        try store.apply(.start(experiment: "zeta"), context: Fixture.carol)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes == (StoreFile.encode(try store.load())))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"note\": \"second\""))
    }
}
