import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing
@testable import ExperimentStore

/// Saving by copying the history the writer wrote: a transaction checks the old entries without
/// keeping them, copies their bytes and appends its own, and the file is always a full encoding's.
struct VerbatimHistoryTests {
    /// `change` applied through a real transaction to a file holding `original`: the bytes it
    /// leaves, and what a full read of `original` plus the change encodes to (or both errors).
    static func saved(_ original: Data, applying change: Change, context: ChangeContext = Fixture.carol) throws
        -> (bytes: Data, expected: Data?, error: StoreError?, expectedError: StoreError?) {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        try original.write(to: URL(fileURLWithPath: path))
        var expected: Data?, failure: StoreError?, expectedError: StoreError?
        do {
            var snapshot = try StoreFile.decode(original, path: path)
            try snapshot.apply(change, context: context)
            expected = StoreFile.encode(snapshot)
        } catch let error as StoreError { expectedError = error }
        do { try StoreFile(path: path).apply(change, context: context) } catch { failure = error }
        return (try Data(contentsOf: URL(fileURLWithPath: path)), expected, failure, expectedError)
    }

    /// A change whose clock is behind the newest entry (another machine's) is placed by its time,
    /// never appended out of order or re-timed: the saved file is the full encoding's, in time order.
    @Test func aChangeRecordedBehindTheNewestEntryIsPlacedByItsTime() throws {
        var snapshot = try Fixture.snapshot("checkout", status: .running)
        try snapshot.apply(.setDescription(experiment: "checkout", description: "late"), context: Fixture.carol)
        let original = StoreFile.encode(snapshot)
        let behind = ChangeContext(operatorName: "bob", now: Fixture.t1)
        let saved = try Self.saved(original, applying: .setDescription(experiment: "checkout", description: "behind"), context: behind)
        #expect(saved.error == nil && saved.bytes == saved.expected)
        let history = try StoreFile.decode(saved.bytes, path: "s.json").history
        #expect(history.map(\.at) == history.map(\.at).sorted())
        #expect(history.last?.operatorName == "carol" && history.contains { $0.operatorName == "bob" && $0.at == Fixture.t1 })
        // At the same time as the newest entry: after it, by the copying path.
        let same = try Self.saved(original, applying: .setDescription(experiment: "checkout", description: "tie"),
                                  context: ChangeContext(operatorName: "bob", now: Fixture.t2))
        #expect(same.error == nil && same.bytes == same.expected)
        #expect(try StoreFile.decode(same.bytes, path: "s.json").history.last?.operatorName == "bob")
    }

    /// Random stores (awkward text: every escape the writer uses), random changes to one experiment,
    /// several in a row: the history is recognised each time and the file is a full encoding's.
    @Test(arguments: 1...16 as ClosedRange<UInt64>)
    func randomStoresCopyTheirHistory(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var bytes = StoreFile.encode((seed % 2 == 0 ? RandomStore.plain : RandomStore.awkward).snapshot(using: &random))
        for round in 0..<3 {
            let snapshot = try StoreFile.decode(bytes, path: "s.json")
            let open = snapshot.experiments.values.filter { $0.status != .resolved }.map(\.key).sorted()
            guard let key = open.randomElement(using: &random) else { return }
            let reading = try #require(StoreReader.reading(from: bytes, recognising: StoreWriter.writtenSpan, keepingEntriesOf: [key]))
            #expect(reading.history?.count == snapshot.history.count, "round \(round): the writer's history is recognised")
            #expect(reading.document.history.isEmpty, "round \(round): and not kept")
            var change = VerbatimSaveTests.change(to: key, in: snapshot, using: &random)
            var probe = snapshot
            if (try? probe.apply(change, context: Fixture.carol)) == nil {
                change = .whitelistAdd(experiment: key, subject: "fallback-\(round)", variant: "control", note: "a \"quoted\" note")
            }
            let saved = try Self.saved(bytes, applying: change)
            #expect(saved.error == nil && saved.bytes == saved.expected, "round \(round)")
            bytes = saved.bytes
        }
    }

    /// The long-histories shape, changed several times by whitelist adds, imports and ramps: each
    /// transaction keeps none of the old entries and leaves a full encoding's bytes.
    @Test func aLongHistoryIsCopiedChangeAfterChange() throws {
        var bytes = StoreFile.encode(try StoreShapes.longHistories())
        let rows = (0..<50).map { WhitelistRow(line: $0 + 2, subject: "imported-\($0)", variant: "treatment", note: "batch \"7\" \\ done") }
        let changes: [Change] = [
            .whitelistAdd(experiment: StoreShapes.small, subject: "added-1", variant: "control", note: "a note of more than 15 bytes"),
            .whitelistImport(experiment: "exp-007", rows: rows),
            .ramp(experiment: StoreShapes.small, weights: ["control": Fixture.w("20"), "treatment": Fixture.w("80")]),
            .whitelistRemove(experiment: StoreShapes.small, subject: "added-1"),
        ]
        for change in changes {
            let count = try StoreFile.decode(bytes, path: "s.json").history.count
            let reading = try #require(StoreReader.reading(from: bytes, recognising: StoreWriter.writtenSpan, keepingEntriesOf: [change.experimentKey]))
            #expect(reading.history?.count == count && reading.document.history.isEmpty, "\(change.experimentKey)")
            let saved = try Self.saved(bytes, applying: change)
            #expect(saved.error == nil && saved.bytes == saved.expected, "\(change.experimentKey)")
            bytes = saved.bytes
        }
        #expect(try StoreFile.decode(bytes, path: "s.json").history.count == StoreShapes.longHistories().history.count + changes.count)
    }

    /// Same meaning, other bytes: the history is read whole and encoded again, and the file is
    /// exactly what a full read and encode give.
    @Test(arguments: [
        ("keys reordered", "{\"action\": \"create\", \"after\": \"draft off=30,on=70\",", "{\"after\": \"draft off=30,on=70\", \"action\": \"create\","),
        ("an extra space", "\"experiment\": \"zeta\", \"operator\": \"alice\"}", "\"experiment\": \"zeta\",  \"operator\": \"alice\"}"),
        ("an escape the writer does not use", "\"after\": \"draft off=30,on=70\"", "\"after\": \"draft off=30,on\\u003d70\""),
        ("an escaped slash", "\"after\": \"draft off=30,on=70\"", "\"after\": \"draft off=30,on=70 \\/\""),
        ("a quote escaped in hex", "note=\\\"second\\\"", "note=\\u0022second\\\""),
        ("an unknown field", "\"experiment\": \"zeta\", \"operator\": \"bob\"}", "\"experiment\": \"zeta\", \"operator\": \"bob\", \"ticket\": 7}"),
        ("a date with an offset", "\"at\": \"2026-01-01T00:00:00Z\", \"before\": null, \"experiment\": \"zeta\"",
         "\"at\": \"2026-01-01T00:00:00+00:00\", \"before\": null, \"experiment\": \"zeta\""),
        ("a space before the closing bracket", "\"operator\": \"bob\"}\n  ],", "\"operator\": \"bob\"}\n   ],"),
    ])
    func tamperedHistoriesAreEncodedAgain(label: String, old: String, new: String) throws {
        let text = String(decoding: StoreFile.encode(try StoreFileTests.base()), as: UTF8.self)
        #expect(text.components(separatedBy: old).count == 2, "\(label): the fixture holds the text once")
        let tampered = Data(text.replacingOccurrences(of: old, with: new).utf8)
        // The same store but for the slash the escape stands for.
        let plain = Data(text.replacingOccurrences(of: old, with: new.replacingOccurrences(of: "\\/", with: "/")).utf8)
        #expect(try StoreFile.decode(tampered, path: "s.json") == StoreFile.decode(plain, path: "s.json"), "\(label): the same store")
        if let reading = StoreReader.reading(from: tampered, recognising: StoreWriter.writtenSpan, keepingEntriesOf: ["alpha"]) {
            #expect(reading.history == nil && reading.document.history.count == 5, "\(label): the history is read whole")
        }
        let saved = try Self.saved(tampered, applying: .start(experiment: "alpha"))
        #expect(saved.error == nil && saved.bytes == saved.expected, "\(label)")
        #expect(saved.bytes == StoreFile.encode(try StoreFile.decode(saved.bytes, path: "s.json")), "\(label): canonical again")
    }

    /// Entries a full read refuses are refused by the transaction too, with the same problem, nothing written.
    @Test(arguments: [
        ("an empty operator", "\"experiment\": \"zeta\", \"operator\": \"alice\"}", "\"experiment\": \"zeta\", \"operator\": \"\"}"),
        ("a DEL in an operator", "\"experiment\": \"zeta\", \"operator\": \"alice\"}", "\"experiment\": \"zeta\", \"operator\": \"al\u{7F}ice\"}"),
        ("an escaped control character in an operator", "\"experiment\": \"zeta\", \"operator\": \"alice\"}",
         "\"experiment\": \"zeta\", \"operator\": \"al\\nice\"}"),
        ("an action that is not a word", "{\"action\": \"set_payload\"", "{\"action\": \"Set colour\""),
        ("a date that is not one", "\"at\": \"2026-01-01T00:00:00Z\", \"before\": null, \"experiment\": \"zeta\"",
         "\"at\": \"yesterday\", \"before\": null, \"experiment\": \"zeta\""),
        ("invalid UTF-8", "\"after\": \"draft off=30,on=70\"", "\"after\": \"draft off=30,on=70\u{FFFD}\""),
    ])
    func invalidHistoriesAreRefusedAsAFullReadRefusesThem(label: String, old: String, new: String) throws {
        let text = String(decoding: StoreFile.encode(try StoreFileTests.base()), as: UTF8.self)
        #expect(text.components(separatedBy: old).count == 2, "\(label): the fixture holds the text once")
        var tampered = Data(text.replacingOccurrences(of: old, with: new).utf8)
        if label == "invalid UTF-8", let range = tampered.range(of: Data("\u{FFFD}".utf8)) { tampered.replaceSubrange(range, with: [0xFF]) }
        let saved = try Self.saved(tampered, applying: .start(experiment: "alpha"))
        #expect(saved.expectedError != nil && saved.error == saved.expectedError, "\(label)")
        #expect(saved.bytes == tampered, "\(label): nothing written")
    }

    /// The writer's escapes and nothing else: every ASCII character the writer writes is read back
    /// as written, and every other spelling of an escape is not.
    @Test func onlyTheWritersEscapesAreRecognised() throws {
        for byte in UInt8(0)..<0x80 {
            let text = "a" + String(UnicodeScalar(byte)) + "b"
            var writer = ByteWriter(capacity: 16)
            writer.appendQuoted(text)
            let written = writer.data()
            written.withUnsafeBytes { raw in
                var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
                let read = cursor.writtenStringContent()
                #expect(read != nil && cursor.isAtEnd(), "byte \(byte)")
                #expect(read?.escaped == (JSONEscape.written(byte) != nil), "byte \(byte)")
            }
        }
        for other in [#""\/""#, #""\u0041""#, #""\u000a""#, #""\u001B""#, #""\u005c""#, "\"\t\"", #""\x""#, #""\u00""#] {
            Data(other.utf8).withUnsafeBytes { raw in
                var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
                #expect(cursor.writtenStringContent() == nil, "\(other)")
                #expect(cursor.position == 0, "\(other): nothing consumed")
            }
        }
    }

    /// With the old entries left in the file, the new ones are still named by their place in it.
    @Test func newEntriesAreNumberedAfterTheOmittedOnes() throws {
        var snapshot = try StoreFileTests.base()
        snapshot.history = [HistoryEntry(at: Fixture.t2, operatorName: "", experiment: "alpha", action: .start, before: nil, after: nil)]
        #expect(StoreValidator.problems(in: snapshot, changed: ["alpha"], historyFrom: 0, after: 5)
            == [StoreProblem("$.history[5].operator", "must be 1–256 characters without control characters")])
    }
}
