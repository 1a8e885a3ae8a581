@testable import ExperimentClient
import ExperimentCore
import ExperimentTestSupport
import Foundation
import Testing

/// The one-pass client snapshot reader (`SnapshotLoader.read`) against the `JSONDecoder` one
/// (`SnapshotLoader.decodingLoad`, the reference): random stores exported by the real
/// `abconsole export --format client`, the same snapshots in other layouts, broken copies and the
/// hostile corpus. The same snapshot gives the same experiments, payload texts and decisions; a bad
/// one is refused in the same words.
@Suite struct ClientReaderTests {
    /// Random stores through the real export: the fast reader takes every one, and decides as the reference and the store do.
    @Test func randomExportsReadAsTheDecoderReadsThem() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for seed in 1...12 {
            var random = SplitMix64(seed: UInt64(seed))
            let store = RandomStore.make(&random)
            let storePath = directory.appendingPathComponent("store-\(seed).json").path
            let exported = directory.appendingPathComponent("client-\(seed).json").path
            try PayloadEncoding.encode(StoreDocument(store), with: StoreCoding.encoder()).write(to: URL(fileURLWithPath: storePath))
            let export = try Binaries.run("abconsole", ["--store", storePath, "export", "--format", "client", "--out", exported])
            try #require(export.code == 0, "seed \(seed): \(export.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: exported))
            let fast = try #require(SnapshotLoader.read(data), "seed \(seed): the one-pass reader declined the export")
            let reference = try SnapshotLoader.decodingLoad(data, source: "data").get()
            try expectSame(fast, reference, subjects: RandomStore.subjects(of: store, &random), "seed \(seed)")
            for experiment in store.experiments.values {
                let compiled = try #require(fast.experiments[experiment.key]).compiled
                for subject in RandomStore.subjects(of: store, &random) {
                    #expect(compiled.decide(for: subject) == CompiledExperiment(experiment).decide(for: subject), "seed \(seed) \(experiment.key)")
                }
            }
        }
    }

    /// The export with spaces after every `:` and `,` (outside strings): read field by field, still alike.
    @Test func otherLayoutsReadAlike() throws {
        for seed in 20...25 {
            var random = SplitMix64(seed: UInt64(seed))
            let store = RandomStore.make(&random)
            let data = Self.spaced(try ClientSnapshotDocument(store).encoded())
            let fast = try #require(SnapshotLoader.read(data), "seed \(seed): declined a spaced snapshot")
            try expectSame(fast, try SnapshotLoader.decodingLoad(data, source: "data").get(), subjects: RandomStore.subjects(of: store, &random), "spaced \(seed)")
        }
    }

    /// Broken copies (cut short, a subject twice, an unknown variant, a control character, fields
    /// reordered, a wrong type) and the hostile corpus: `load` answers exactly what the reference answers.
    @Test func brokenSnapshotsAreRefusedInTheReferenceWords() throws {
        var random = SplitMix64(seed: 99)
        let store = RandomStore.make(&random)
        let good = String(decoding: try ClientSnapshotDocument(store).encoded(), as: UTF8.self)
        var cases: [(String, Data)] = []
        for cut in stride(from: 1, to: good.utf8.count, by: max(1, good.utf8.count / 40)) {
            cases.append(("cut at \(cut)", Data(good.utf8.prefix(cut))))
        }
        let edits: [(String, String, String)] = [
            ("subject twice", #"{"subject":"#, #"{"subject":"twice","variant":"v0"},{"subject":"twice","variant":"v0"},{"subject":"#),
            ("unknown variant", #","variant":"v0"}"#, #","variant":"nope"}"#),
            ("control character", #"{"subject":""#, #"{"subject":"a\u0001b","variant":"v0"},{"subject":""#),
            ("empty subject", #"{"subject":""#, #"{"subject":"","variant":"v0"},{"subject":""#),
            ("whitelist first", #""control":"#, #""whitelist":[],"control":"#),
            ("revision as text", #""revision":"#, #""revision":"1","x":"#),
            ("other format", #""format":"abconsole-client""#, #""format":"abconsole-clients""#),
            ("schema 2", #""schema_version":1"#, #""schema_version":2"#),
            ("repeated key", #""salt":"#, #""salt":"x","salt":"#),
            ("weight out of range", #""weight":"#, #""weight":101,"w":"#),
            ("status unknown", #""status":""#, #""status":"x"#),
        ]
        for (name, target, replacement) in edits where good.contains(target) {
            cases.append((name, Data(good.replacingOccurrences(of: target, with: replacement).utf8)))
        }
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus/snapshots")
        for file in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() {
            cases.append(("corpus \(file)", try Data(contentsOf: corpus.appendingPathComponent(file))))
        }
        #expect(cases.count > 40)
        let subjects = RandomStore.subjects(of: store, &random)
        for (name, data) in cases {
            switch (SnapshotLoader.load(data, source: "s.json"), SnapshotLoader.decodingLoad(data, source: "s.json")) {
            case (.failure(let error), .failure(let expected)):
                #expect(error == expected, "\(name)")
                // JSONDecoder alone would read a repeated member; every reader of a snapshot refuses it.
                if name == "repeated key" { #expect(error.reason.contains(#"$.experiments[0].salt: repeated member "salt""#), "\(error)") }
            case (.success(let snapshot), .success(let expected)): try expectSame(snapshot, expected, subjects: subjects, name)
            case (let got, let expected): Issue.record("\(name): \(got) but the reference says \(expected)")
            }
        }
    }

    /// Same revision, experiments, controls, payload texts, variant names and decisions for `subjects`.
    private func expectSame(_ snapshot: ClientSnapshot, _ reference: ClientSnapshot, subjects: [Subject], _ label: String) throws {
        #expect(snapshot.revision == reference.revision, "\(label)")
        #expect(snapshot.experiments.keys.sorted() == reference.experiments.keys.sorted(), "\(label)")
        for (key, expected) in reference.experiments {
            let entry = try #require(snapshot.experiments[key])
            #expect(entry.control == expected.control && entry.compiled.names == expected.compiled.names, "\(label) \(key)")
            #expect(entry.compiled.status == expected.compiled.status && entry.compiled.type == expected.compiled.type, "\(label) \(key)")
            #expect(entry.payloads.mapValues(Self.text) == expected.payloads.mapValues(Self.text), "\(label) \(key)")
            for subject in subjects {
                #expect(entry.compiled.decide(for: subject) == expected.compiled.decide(for: subject), "\(label) \(key) \(subject)")
            }
        }
    }

    /// A payload with its numbers as written (`1.0` is not `1` here).
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let number): number.literal
        case .string(let string): string.debugDescription
        case .array(let items): "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let members): "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(text($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// `data` with a space after every `:` and `,` outside strings.
    static func spaced(_ data: Data) -> Data {
        var out: [UInt8] = [], inString = false, escaped = false
        for byte in data {
            out.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") {
                out.append(UInt8(ascii: " "))
            }
        }
        return Data(out)
    }
}

/// Random valid stores: any status and type, one to four variants over random ranges, payloads with
/// numbers written many ways and strings that need escapes, whitelists of plain and escaped subjects.
enum RandomStore {
    static func make(_ random: inout SplitMix64) -> StoreSnapshot {
        var snapshot = StoreSnapshot(revision: Int(random.next() % 1000) + 1)
        for index in 0..<Int(random.next() % 4) + 1 {
            let key = "exp_\(index)"
            let count = Int(random.next() % 4) + 1
            let top = random.next() % 3 == 0 ? 10_000 - Int(random.next() % 2000) : 10_000
            let cuts = [0] + (0..<count - 1).map { _ in Int(random.next() % UInt64(top + 1)) }.sorted() + [top]
            let variants = (0..<count).map { number in
                let range = BucketRange(cuts[number], cuts[number + 1])
                return Variant(name: "v\(number)", weight: Weight(buckets: range.count), ranges: range.count == 0 ? [] : [range],
                               payload: payload(&random, depth: 0))
            }
            let status = ExperimentStatus.allCases[Int(random.next() % UInt64(ExperimentStatus.allCases.count))]
            var whitelist: [SubjectID: WhitelistEntry] = [:]
            for number in 0..<Int(random.next() % 300) {
                let subject = Self.subject(&random, number)
                whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: "v\(random.next() % UInt64(count))", note: "n",
                                                               addedBy: "t", addedAt: Date(timeIntervalSince1970: 1_767_225_600))
            }
            let epoch = Date(timeIntervalSince1970: 1_767_225_600)
            snapshot.experiments[key] = Experiment(key: key, type: random.next() % 2 == 0 ? .user : .device, status: status,
                                                   salt: random.next() % 2 == 0 ? key : "salt \(random.next() % 100) \u{e9}", control: "v0",
                                                   winner: status == .resolved ? "v\(random.next() % UInt64(count))" : nil, description: "",
                                                   revision: 1, createdAt: epoch, updatedAt: epoch, updatedBy: "t", variants: variants, whitelist: whitelist)
        }
        return snapshot
    }

    /// A subject: mostly `user-N`, sometimes with a quote, a backslash, a slash or non-ASCII letters.
    static func subject(_ random: inout SplitMix64, _ number: Int) -> String {
        switch random.next() % 8 {
        case 0: "q\"uote-\(number)"
        case 1: "back\\slash/\(number)"
        case 2: "jos\u{e9}-\(number)"
        case 3: "e\u{301}-\(number)"
        default: "user-\(random.next() % 1_000_000)"
        }
    }

    static func payload(_ random: inout SplitMix64, depth: Int) -> JSONValue? {
        let numbers = ["1.0", "1", "-0.5", "1.50e3", "12345678901234567890", "0.1", "2E-3"]
        switch random.next() % (depth > 2 ? 5 : 7) {
        case 0: return nil
        case 1: return .number(JSONNumber(literal: numbers[Int(random.next() % UInt64(numbers.count))]) ?? 1)
        case 2: return .string(["plain", "</script>", "tab\there", "quote\"", "\u{1F600}"][Int(random.next() % 5)])
        case 3: return .bool(random.next() % 2 == 0)
        case 4: return .null
        case 5: return .array((0..<Int(random.next() % 3)).map { _ in payload(&random, depth: depth + 1) ?? .null })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int(random.next() % 3) { members["k\(index)"] = payload(&random, depth: depth + 1) ?? .null }
            return .object(members)
        }
    }

    /// Subjects to ask: random ones, every whitelisted one, and ones without an id.
    static func subjects(of store: StoreSnapshot, _ random: inout SplitMix64) -> [Subject] {
        var subjects = (0..<60).map { _ in Subject(userID: "user-\(random.next() % 1_000_000)", deviceID: "device-\(random.next() % 1000)") }
        subjects += store.experiments.values.flatMap { $0.whitelist.keys.map { Subject(userID: $0.text, deviceID: $0.text) } }
        subjects += [Subject(userID: nil, deviceID: nil), Subject(userID: "", deviceID: "d")]
        return subjects
    }
}
