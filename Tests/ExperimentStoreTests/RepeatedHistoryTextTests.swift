import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentStore

/// The fast reader hands a history entry the previous entry's operator, experiment, before and after
/// `String` when their bytes repeat, and holds a written whitelist as `PendingEntry`s until its
/// dictionary is built: what it reads is JSONDecoder's reading, byte for byte, whatever repeats.
struct RepeatedHistoryTextTests {
    static let texts: [String?] = [nil, "", "draft", "control=50,treatment=50", "user-12345=treatment", "quote \" and \\ slash",
                                   "tab\there", "日本 😀", "é", "e\u{301}", "\u{7F}x", "line\u{2028}sep", "a/b"]
    static let operators = ["alice", "maria.pm@example.com", "opérateur-au-long-nom", "e\u{301}", "é", "x"]

    /// A random store whose history comes in runs: each entry keeps some of the previous one's texts.
    static func snapshot(seed: UInt64) -> StoreSnapshot {
        var random = SplitMix64(seed: seed)
        var snapshot = (seed % 2 == 0 ? RandomStore.plain : RandomStore.awkward).snapshot(using: &random)
        let keys = snapshot.experiments.keys.sorted() + ["gone-experiment", "e\u{301}xp", "éxp"]
        var entry = HistoryEntry(at: Fixture.t0, operatorName: "alice", experiment: keys[0], action: .create, before: nil, after: "draft")
        var history: [HistoryEntry] = []
        for index in 0..<600 {
            entry.at = Fixture.t0.addingTimeInterval(Double(index))
            entry.action = HistoryAction.allCases[Int(random.next() % UInt64(HistoryAction.allCases.count))]
            if random.next() % 4 == 0 { entry.operatorName = operators[Int(random.next() % UInt64(operators.count))] }
            if random.next() % 4 == 0 { entry.experiment = keys[Int(random.next() % UInt64(keys.count))] }
            if random.next() % 3 == 0 { entry.before = texts[Int(random.next() % UInt64(texts.count))] }
            if random.next() % 3 == 0 { entry.after = texts[Int(random.next() % UInt64(texts.count))] }
            history.append(entry)
        }
        snapshot.history = history
        return snapshot
    }

    /// Every text of the history as its bytes (String's `==` would equate `é` and `e` + U+0301).
    static func bytes(_ history: [HistoryEntry]) -> [[[UInt8]?]] {
        history.map { [Array($0.operatorName.utf8), Array($0.experiment.utf8), $0.before.map { Array($0.utf8) }, $0.after.map { Array($0.utf8) }] }
    }

    /// Every whitelist entry's texts as bytes, experiments by key and entries by subject bytes.
    static func bytes(_ experiments: [Experiment]) -> [[[UInt8]]] {
        experiments.sorted { $0.key < $1.key }.flatMap { experiment in
            experiment.whitelist.values.map { [Array($0.subject.utf8), Array($0.variant.utf8), Array($0.note.utf8), Array($0.addedBy.utf8)] }
                .sorted { $0[0].lexicographicallyPrecedes($1[0]) }
        }
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func repeatedTextsReadAsJSONDecoderReadsThem(seed: UInt64) throws {
        let snapshot = Self.snapshot(seed: seed)
        let canonical = StoreFile.encode(snapshot)
        let foundation = try StoreSnapshot.foundationDocument(canonical, path: "s.json")
        #expect(Self.bytes(foundation.history) == Self.bytes(snapshot.history))
        // The one-pass read, the load that defers whitelists, and the history a transaction reads back.
        let fast = try #require(StoreReader.document(from: canonical))
        #expect(fast.history == foundation.history)
        #expect(Self.bytes(fast.history) == Self.bytes(foundation.history))
        let loaded = try StoreFile.decode(canonical, path: "s.json")
        #expect(loaded == (try StoreSnapshot.validated(foundation, path: "s.json")))
        #expect(Self.bytes(loaded.history) == Self.bytes(foundation.history))
        #expect(Self.bytes(Array(loaded.experiments.values)) == Self.bytes(foundation.experiments))
        let reading = try #require(StoreReader.reading(from: canonical, recognising: StoreWriter.writtenSpan, keepingEntriesOf: []))
        let written = try #require(reading.history, "the writer's history is recognised")
        let copied = try #require(StoreReader.historyEntries(in: canonical, written))
        #expect(Self.bytes(copied) == Self.bytes(foundation.history))
        // Foundation's own layout (other whitespace) reads the same.
        let legacy = try StoreCoding.encoder().encode(StoreDocument(snapshot)) + Data([0x0A])
        let fastLegacy = try #require(StoreReader.document(from: legacy))
        #expect(Self.bytes(fastLegacy.history) == Self.bytes(foundation.history))
        #expect(StoreFile.encode(loaded) == canonical)
    }
}
