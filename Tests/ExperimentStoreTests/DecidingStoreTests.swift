import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentStore

/// The store as a server reads it (`DecidingStore`): read from the writer's bytes with no whitelist
/// entry or history kept, it holds what reading the store whole and listing it holds, and refuses
/// exactly what reading it whole refuses.
struct DecidingStoreTests {
    static func decoded(_ data: Data) -> Result<DecidingStore, StoreError> {
        do { return .success(try DecidingStore.decode(data, path: "s.json")) } catch { return .failure(error) }
    }

    static func whole(_ data: Data) -> Result<DecidingStore, StoreError> {
        do { return .success(DecidingStore(try StoreSnapshot.decode(data, path: "s.json"))) } catch { return .failure(error) }
    }

    /// The writer's bytes are listed straight from the file: no entry, no history in the document.
    static func expectListedFromBytes(_ snapshot: StoreSnapshot) throws {
        let bytes = StoreFile.encode(snapshot)
        let reading = try #require(StoreReader.readingListingWhitelists(from: bytes), "the reader lists the writer's bytes")
        #expect(reading.document.experiments.allSatisfy { $0.whitelist.isEmpty }, "no whitelist entry is kept")
        #expect(reading.document.history.isEmpty, "the history is checked, not kept")
        #expect(reading.history?.count == snapshot.history.count)
        let listed = Dictionary(uniqueKeysWithValues: reading.listed.map { (reading.document.experiments[$0.experiment].key, $0.indices.count) })
        #expect(listed == snapshot.experiments.filter { !$0.value.whitelist.isEmpty }.mapValues(\.whitelist.count))
    }

    @Test(arguments: StoreShapes.names)
    func storeShapesAreListedAsReadingThemWholeListsThem(shape: String) throws {
        let snapshot = try StoreShapes.named(shape)
        try Self.expectListedFromBytes(snapshot)
        let bytes = StoreFile.encode(snapshot)
        #expect(Self.decoded(bytes) == .success(DecidingStore(snapshot)))
        // Foundation's layout is not the writer's: its whitelists are read whole, then listed.
        let legacy = try StoreCoding.encoder().encode(StoreDocument(snapshot)) + Data([0x0A])
        #expect(Self.decoded(legacy) == .success(DecidingStore(snapshot)))
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func randomStoresAreListedAsReadingThemWholeListsThem(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let snapshot = RandomStore.awkward.snapshot(using: &random)
        let bytes = StoreFile.encode(snapshot)
        #expect(StoreReader.readingListingWhitelists(from: bytes) != nil, "the reader lists the writer's bytes")
        #expect(Self.decoded(bytes) == Self.whole(bytes))
    }

    @Test func aListedSubjectDecidesAsItsEntryDoes() throws {
        let snapshot = try StoreShapes.hugeBesideSmall(huge: 200)
        let store = try DecidingStore.decode(StoreFile.encode(snapshot), path: "s.json")
        for experiment in store.experiments {
            let whole = try #require(snapshot.experiments[experiment.key])
            let compiled = CompiledExperiment(experiment, listed: store.listed[experiment.key] ?? [:])
            #expect(compiled.heldWhitelist.entries == 0)
            #expect(compiled.heldWhitelist.indices == whole.whitelist.count)
            for subject in whole.whitelist.keys.map(\.text) + ["nobody-1", "sub-999999"] {
                let asked = Subject(userID: subject, deviceID: subject)
                #expect(compiled.decide(for: asked) == CompiledExperiment(whole).decide(for: asked), "\(experiment.key) \(subject)")
            }
        }
    }

    /// A broken entry in the writer's layout (the first match of a pattern replaced): the same
    /// refusal, with the same words, as reading it whole.
    @Test(arguments: [
        (#""subject": "sub-000002", "variant": "control"\}"#, #""subject": "sub-000002", "variant": "nope"}"#),
        (#""subject": "sub-000002""#, "\"subject\": \"sub-000002" + String(repeating: "x", count: 300) + "\""),
        (#""added_at": ""#, #""added_at": "yesterday", "x": ""#),
        (#""operator": "[^"]*""#, #""operator": """#),
    ])
    func aBrokenFileIsRefusedAsReadingItWholeRefusesIt(pattern: String, broken: String) throws {
        let bytes = StoreFile.encode(try StoreShapes.hugeBesideSmall(huge: 20))
        let text = String(decoding: bytes, as: UTF8.self)
        let range = try #require(text.range(of: pattern, options: .regularExpression))
        let changed = Data(text.replacingCharacters(in: range, with: broken).utf8)
        guard case .failure(let refusal) = Self.whole(changed) else {
            Issue.record("reading it whole refuses the broken file")
            return
        }
        #expect(Self.decoded(changed) == .failure(refusal))
    }
}
