import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing
@testable import ExperimentStore

/// The one-pass store reader and the canonical writer, checked against Foundation's `JSONDecoder`,
/// `JSONEncoder` and `ISO8601DateFormatter` on random stores, the hostile corpus and edge cases.
struct StoreReaderWriterTests {
    /// What `StoreFile.decode` answers, as a comparable value.
    enum Outcome: Equatable {
        case snapshot(StoreSnapshot)
        case error(StoreError)
    }

    static func fastPath(_ data: Data) -> Outcome {
        do { return .snapshot(try StoreFile.decode(data, path: "s.json")) } catch { return .error(error) }
    }

    static func foundationPath(_ data: Data) -> Outcome {
        do {
            return .snapshot(try StoreSnapshot.validated(StoreSnapshot.foundationDocument(data, path: "s.json"), path: "s.json"))
        } catch {
            return .error(error)
        }
    }

    static func foundationBytes(_ snapshot: StoreSnapshot) throws -> Data {
        try StoreCoding.encoder().encode(StoreDocument(snapshot)) + Data([0x0A])
    }

    // MARK: Random stores

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func randomStoresReadExactlyAsJSONDecoderReadsThem(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let snapshot = RandomStore.awkward.snapshot(using: &random)
        let canonical = StoreFile.encode(snapshot)
        // The fast reader understands everything the writer writes, and agrees with JSONDecoder on it.
        let fast = try #require(StoreReader.document(from: canonical), "the fast reader reads the writer's bytes")
        let foundation = try StoreSnapshot.foundationDocument(canonical, path: "s.json")
        #expect(fast.experiments == foundation.experiments)
        #expect(fast.history == foundation.history)
        #expect(fast.revision == foundation.revision)
        // Foundation's own layout reads the same through either path, and equals the canonical bytes' snapshot.
        let legacy = try Self.foundationBytes(snapshot)
        #expect(StoreReader.document(from: legacy) != nil, "the fast reader reads Foundation's pretty-printed layout")
        #expect(Self.fastPath(legacy) == Self.foundationPath(legacy))
        #expect(Self.fastPath(canonical) == Self.fastPath(legacy))
        // Deterministic: writing what was read gives the same bytes.
        let reread = try StoreFile.decode(canonical, path: "s.json")
        #expect(StoreFile.encode(reread) == canonical)
    }

    /// The benchmark's shapes — a huge whitelist beside small ones, long histories — read exactly as
    /// JSONDecoder reads them, in the writer's layout and in Foundation's, and write back the same bytes.
    @Test(arguments: StoreShapes.names)
    func storeShapesReadExactlyAsJSONDecoderReadsThem(shape: String) throws {
        let snapshot = try StoreShapes.named(shape)
        let canonical = StoreFile.encode(snapshot)
        #expect(StoreReader.document(from: canonical) != nil, "the fast reader reads the writer's bytes")
        #expect(Self.fastPath(canonical) == Self.foundationPath(canonical))
        #expect(Self.fastPath(canonical) == .snapshot(snapshot))
        let legacy = try Self.foundationBytes(snapshot)
        #expect(Self.fastPath(legacy) == Self.foundationPath(legacy))
        #expect(StoreFile.encode(try StoreFile.decode(canonical, path: "s.json")) == canonical)
    }

    @Test func writtenStringsAreValidJSONWithEveryCharacterKept() throws {
        let awkward = "q\"b\\s/\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}é e\u{301} 日本 😀 \u{2028}"
        var snapshot = try Fixture.snapshot()
        try snapshot.apply(.whitelistAdd(experiment: "checkout", subject: "😀-é", variant: "control", note: awkward), context: Fixture.bob)
        try snapshot.apply(.setPayload(experiment: "checkout", variant: "treatment",
                                       payload: .object([awkward: .array([.string(awkward), .number(1e21), .number(-0.5), .bool(true), .null])])),
                           context: Fixture.bob)
        let bytes = StoreFile.encode(snapshot)
        #expect(try StoreFile.decode(bytes, path: "s.json") == snapshot)
        let viaFoundation = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        #expect(viaFoundation?["revision"] as? Int == snapshot.revision)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""note": "q\"b\\s/\n\r\t\b\f\u0001\u001f\#u{7F}é e\#u{301} 日本 😀 \#u{2028}""#))
        #expect(!text.utf8.contains { $0 < 0x20 && $0 != 0x0A }, "no raw control character but the line breaks")
    }

    // MARK: The hostile corpus

    /// Every corpus store gives the same snapshot or the same problems as JSONDecoder alone would.
    @Test func corpusStoresDecodeExactlyAsJSONDecoderDoes() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("corpus/stores")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count > 50)
        var deferred: [String] = []
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(Self.fastPath(data) == Self.foundationPath(data), "\(name)")
            if StoreReader.document(from: data) == nil, (try? StoreSnapshot.foundationDocument(data, path: "s.json")) != nil {
                deferred.append(name)
            }
        }
        // What JSONDecoder reads, the fast reader reads too, but for these on purpose.
        #expect(deferred == ["deep-nesting-payload-65.json", "schema-version-0.json", "schema-version-2.json",
                             "utf16be.json", "utf16le-bom.json", "utf8-bom.json"])
    }

    /// A member named twice in one object, at any level: JSONDecoder alone reads it (keeping one
    /// value), so the reference is not JSONDecoder here: both paths refuse it, naming the member.
    @Test(arguments: [
        (#"{"experiments": [], "history": [], "revision": 0, "revision": 1, "schema_version": 1}"#, "$.revision", "revision"),
        (#"{"experiments": [], "history": [], "revision": 0, "schema_version": 1, "x": {"a": [{"b": 1, "\u0062": 2}]}}"#, "$.x.a[0].b", "b"),
        (#"{"experiments": [], "history": [], "revision": 0, "schema_version": 1, "x": {"\u00e9": 1, "e\u0301": 2}}"#, "$.x.é", "é"),
    ])
    func aRepeatedMemberIsRefusedByEveryPath(text: String, path: String, name: String) throws {
        let data = Data(text.utf8)
        #expect(StoreReader.document(from: data) == nil)
        #expect((try? StoreCoding.decoder().decode(StoreDocument.self, from: data)) != nil, "JSONDecoder reads it")
        let problem = StoreProblem(path, RepeatedMembers.message(name))
        #expect(Self.fastPath(data) == .error(.invalid(path: "s.json", problems: [problem])))
        #expect(Self.foundationPath(data) == .error(.invalid(path: "s.json", problems: [problem])))
    }

    // MARK: What the fast reader leaves to JSONDecoder

    static let base = #"{"experiments": [], "history": [], "revision": 0, "schema_version": 1}"#

    @Test(arguments: [
        #"{"experiments": [], "history": [], "revision": 0, "revision": 1, "schema_version": 1}"#,   // repeated member
        #"{"experiments": [], "history": [], "revision": -0, "schema_version": 1}"#,                 // negative zero
        #"{"experiments": [], "history": [], "revision": 1e2, "schema_version": 1}"#,                // exponent in an integer
        #"{"experiments": [], "history": [], "revision": 01, "schema_version": 1}"#,                 // leading zero
        #"{"experiments": [], "history": [], "revision": 99999999999999999999, "schema_version": 1}"#,
        #"{"experiments": [], "history": [], "revision": 0, "schema_version": 2}"#,                  // another schema
        #"{"experiments": [], "history": [], "revision": 0}"#,                                      // missing field
        #"{"experiments": [], "history": [], "revision": 0, "schema_version": 1} x"#,               // trailing text
        "\u{FEFF}" + base,                                                                           // byte order mark
        #"{"experiments": [], "history": [], "revision": 0, "schema_version": 1, "x": "\ud800"}"#,  // lone surrogate
        #"{"experiments": [], "history": [], "revision": 0, "schema_version": 1, "x": [1,]}"#,      // trailing comma
        "{\"experiments\": [], \"history\": [], \"revision\": 0, \"schema_version\": 1, \"x\": \"a\tb\"}", // raw tab in a string
    ])
    func unusualTextIsLeftToJSONDecoder(text: String) {
        let data = Data(text.utf8)
        #expect(StoreReader.document(from: data) == nil)
        #expect(Self.fastPath(data) == Self.foundationPath(data))
    }

    @Test func anyWhitespaceEscapesAndUnknownFieldsAreRead() throws {
        let text = "\n\t{ \"history\" :[ ] ,\r\n \"unknown\": {\"deep\": [1, 2.5e3, \"\\ud83d\\ude00\", null, true]},"
            + #" "experiments": [], "revision":7, "schema_version" : 1 }  "#
        let document = try #require(StoreReader.document(from: Data(text.utf8)))
        #expect(document.revision == 7 && document.experiments.isEmpty && document.history.isEmpty)
    }

    @Test(arguments: [
        ("2026-01-31T09:30:00Z", true), ("2024-02-29T23:59:59Z", true), ("1900-01-01T00:00:00Z", true),
        ("9999-12-31T23:59:59Z", true), ("2026-02-30T00:00:00Z", false), ("2026-01-01T24:00:00Z", false),
        ("2026-01-01T00:00:60Z", false), ("1899-12-31T23:59:59Z", false), ("2026-01-01T00:00:00+01:00", false),
        ("2026-01-01T00:00:00.5Z", false), ("2026-01-01 00:00:00Z", false), ("2026-1-01T00:00:00Z", false),
    ])
    func fastDatesAreExactlyFoundationsOrDeferred(text: String, isFast: Bool) throws {
        let parsed = Array(text.utf8).withUnsafeBufferPointer(StoreDate.seconds(parsing:))
        #expect((parsed != nil) == isFast)
        if let parsed {
            let foundation = try #require(ISO8601DateFormatter().date(from: text))
            #expect(Double(parsed) == foundation.timeIntervalSince1970)
        }
    }

    @Test func writtenDatesMatchFoundationsFormatter() {
        var random = SplitMix64(seed: 99)
        let formatter = ISO8601DateFormatter()
        var text: [UInt8] = []
        for index in 0..<20_000 {
            // 1900-01-01 to 9999-12-31, with fractions (Date() has them) and exact halves.
            let seconds = -2_208_988_800 + Int(random.next() % 255_611_289_600)
            let fraction = index % 4 == 0 ? 0 : index % 4 == 1 ? 0.5 : Double(random.next() % 1_000_000) / 1_000_000
            let date = Date(timeIntervalSince1970: Double(seconds) + fraction)
            StoreDate.format(date, into: &text)
            #expect(String(decoding: text, as: UTF8.self) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
        // Outside 1900–9999 the formatter itself writes the date.
        let early = Date(timeIntervalSince1970: -3_000_000_000)
        StoreDate.format(early, into: &text)
        #expect(String(decoding: text, as: UTF8.self) == formatter.string(from: early))
    }
}

/// Random but valid stores with awkward text, payloads and dates, for the reader/writer tests.
struct RandomStore {
    static let awkward = RandomStore(pieces: ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{7F}", "é", "e\u{301}", "日本", "😀", "\u{2028}", "-", "_"])
    /// Text that JSON writes without an escape.
    static let plain = RandomStore(pieces: ["a", "Z", "0", " ", "/", "\u{7F}", "é", "e\u{301}", "日本", "😀", "-", "_"])

    let pieces: [String]

    func text<R: RandomNumberGenerator>(using random: inout R, allowEmpty: Bool = true) -> String {
        let count = Int(random.next() % 12) + (allowEmpty ? 0 : 1)
        return (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    /// A subject or salt: no control characters, never empty.
    func subject<R: RandomNumberGenerator>(using random: inout R, index: Int) -> String {
        text(using: &random).unicodeScalars.filter { !Identifier.isControl($0) }.map(String.init).joined() + "-\(index)"
    }

    func date<R: RandomNumberGenerator>(using random: inout R) -> Date {
        Date(timeIntervalSince1970: Double(-2_208_988_800 + Int(random.next() % 255_611_289_600)) + Double(random.next() % 1000) / 1000)
    }

    func payload<R: RandomNumberGenerator>(using random: inout R, depth: Int = 0) -> JSONValue {
        switch random.next() % (depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number([0, -1, 2.5, 1e21, 1e-7, 123_456_789_012, -0.25, 33.33][Int(random.next() % 8)])
        case 3: return .string(text(using: &random))
        case 4: return .array((0..<Int(random.next() % 4)).map { _ in payload(using: &random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.next() % 4 { members[text(using: &random)] = payload(using: &random, depth: depth + 1) }
            return .object(members)
        }
    }

    /// A ramp plan over `control` and `treatment`: 1–3 distinct steps, any state, a decision with text of these pieces.
    func plan<R: RandomNumberGenerator>(using random: inout R) -> RolloutPlan {
        var steps: [[String: Weight]] = []
        for _ in 0..<Int(random.next() % 3) + 1 {
            let control = Int(random.next() % 10_001), treatment = Int(random.next() % UInt64(10_001 - control))
            let step = ["control": Weight(buckets: control), "treatment": Weight(buckets: treatment)]
            if steps.last != step { steps.append(step) }
        }
        var plan = RolloutPlan(steps: steps, holdSeconds: [60, 86_400, 1_800, 7][Int(random.next() % 4)],
                               minSubjects: Int(random.next() % 5_000), onGuardrail: random.next() % 2 == 0 ? .rollback : .hold,
                               onSRM: random.next() % 2 == 0 ? .rollback : .hold)
        plan.step = Int(random.next() % UInt64(steps.count + 1))
        plan.state = RolloutPlan.State.allCases[Int(random.next() % 4)]
        if plan.step > 0 { plan.startedFrom = ["control": Weight(buckets: 10_000), "treatment": .zero] }
        if random.next() % 2 == 0 {
            let at = Date(timeIntervalSince1970: date(using: &random).timeIntervalSince1970.rounded(.down))
            plan.lastDecision = RolloutPlan.Decision(at: at, action: ["advance", "rollback", "hold"][Int(random.next() % 3)], reason: text(using: &random))
        }
        if random.next() % 4 == 0 { plan.unknownFields[text(using: &random, allowEmpty: false)] = payload(using: &random) }
        return plan
    }

    func snapshot<R: RandomNumberGenerator>(using random: inout R) -> StoreSnapshot {
        var experiments: [String: Experiment] = [:]
        var history: [HistoryEntry] = []
        for index in 0..<Int(random.next() % 6) + 1 {
            let key = "exp\(index)-\(random.next() % 1000)"
            let split = Int(random.next() % 10_001)
            var variants = [Variant(name: "control", weight: Weight(buckets: split), ranges: split > 0 ? [BucketRange(0, split)] : []),
                            Variant(name: "treatment", weight: Weight(buckets: 10_000 - split),
                                    ranges: split < 10_000 ? [BucketRange(split, 10_000)] : [])]
            if random.next() % 2 == 0 { variants[1].payload = payload(using: &random) }
            var whitelist: [SubjectID: WhitelistEntry] = [:]
            for entry in 0..<Int(random.next() % 40) {
                let subject = subject(using: &random, index: entry)
                whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: entry % 2 == 0 ? "control" : "treatment",
                                                               note: text(using: &random), addedBy: subject, addedAt: date(using: &random))
            }
            let status: ExperimentStatus = [.draft, .running, .paused, .resolved][Int(random.next() % 4)]
            experiments[key] = Experiment(key: key, type: random.next() % 2 == 0 ? .user : .device, status: status,
                                          salt: subject(using: &random, index: index), control: "control",
                                          winner: status == .resolved ? "treatment" : nil, description: text(using: &random),
                                          revision: Int(random.next() % 1000) + 1, createdAt: date(using: &random),
                                          updatedAt: date(using: &random), updatedBy: subject(using: &random, index: 0),
                                          variants: variants, whitelist: whitelist)
            if random.next() % 3 == 0 { experiments[key]?.plan = plan(using: &random) }
            history.append(HistoryEntry(at: date(using: &random), operatorName: subject(using: &random, index: index), experiment: key,
                                        action: HistoryAction.allCases[Int(random.next() % UInt64(HistoryAction.allCases.count))],
                                        before: random.next() % 2 == 0 ? nil : text(using: &random),
                                        after: random.next() % 3 == 0 ? nil : text(using: &random)))
        }
        return StoreSnapshot(revision: Int(random.next() % 10_000), experiments: experiments, history: history)
    }
}
