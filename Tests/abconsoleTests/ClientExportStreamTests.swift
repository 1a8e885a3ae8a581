@testable import abconsole
import ExperimentCore
import ExperimentStore
import Foundation
import Testing

/// `export --format client` and `--format growthbook` against the reference encoder
/// (`ExportReference`), through the real process on random stores: byte for byte, to a file and to
/// standard output, and the same refusals and warnings.
@Suite struct ClientExportStreamTests {
    /// Text pieces JSON escapes, HTML-escaped `</`, and text that needs neither.
    static let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "<", "</", "</script>", "\n", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é",
                         "e\u{301}", "日本", "😀", "\u{2028}", "\u{E000}", "-", "_"]

    /// A small seeded generator (SplitMix64), so a failing seed replays.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static func text(_ random: inout Random) -> String { (0..<random.below(10)).map { _ in pieces[random.below(pieces.count)] }.joined() }

    /// A subject or salt: no control characters, never empty.
    static func subject(_ random: inout Random, _ index: Int) -> String {
        text(&random).unicodeScalars.filter { !Identifier.isControl($0) }.map(String.init).joined() + "-\(index)"
    }

    static func payload(_ random: inout Random, depth: Int = 0) -> JSONValue {
        switch random.below(depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number([0, -1, 2.5, 1e21, 1e-7, 123_456_789_012, -0.25, 33.33][random.below(8)])
        case 3: return .string(text(&random))
        case 4: return .array((0..<random.below(4)).map { _ in payload(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            // Now and then the experiment's own key names, which the streamed encoder looks for.
            for _ in 0..<random.below(4) { members[random.below(3) == 0 ? "whitelist" : text(&random)] = payload(&random, depth: depth + 1) }
            if random.below(4) == 0 { members["winner"] = .string("x") }
            return .object(members)
        }
    }

    static func snapshot(seed: UInt64) -> StoreSnapshot {
        var random = Random(state: seed)
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        var experiments: [String: Experiment] = [:]
        for index in 0..<random.below(6) + 1 {
            let key = "exp\(index)-\(random.below(1000))"
            let split = random.below(10_001)
            var variants = [Variant(name: "control", weight: Weight(buckets: split), ranges: split > 0 ? [BucketRange(0, split)] : []),
                            Variant(name: "treatment", weight: Weight(buckets: 10_000 - split), ranges: split < 10_000 ? [BucketRange(split, 10_000)] : [])]
            if random.below(2) == 0 { variants[1].payload = payload(&random) }
            if random.below(3) == 0 { variants[0].payload = .array([]) }
            var whitelist: [SubjectID: WhitelistEntry] = [:]
            for entry in 0..<random.below(3) * random.below(30) {
                let subject = subject(&random, entry)
                whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: entry % 2 == 0 ? "control" : "treatment",
                                                               note: text(&random), addedBy: "tester", addedAt: date)
            }
            let status: ExperimentStatus = [.draft, .running, .paused, .resolved][random.below(4)]
            experiments[key] = Experiment(key: key, type: random.below(2) == 0 ? .user : .device, status: status,
                                          salt: subject(&random, index), control: "control", winner: status == .resolved ? "treatment" : nil,
                                          description: text(&random), revision: 1, createdAt: date, updatedAt: date, updatedBy: "tester",
                                          variants: variants, whitelist: whitelist)
        }
        return StoreSnapshot(revision: random.below(10_000), experiments: experiments)
    }

    /// A store with fields this abconsole does not know and payloads written as odd numbers.
    static func storeBytes(seed: UInt64) -> Data {
        var text = String(decoding: StoreFile.encode(snapshot(seed: seed)), as: UTF8.self)
        if let brace = text.firstIndex(of: "{") {
            text.insert(contentsOf: #""zz_future": {"list": [1.0, "</x>"], "whitelist": []}, "#, at: text.index(after: brace))
        }
        return Data(text.utf8)
    }

    /// On even seeds, a payload written with numbers `JSONEncoder` would rewrite, on an experiment that takes one.
    static func setOddPayload(_ sandbox: Sandbox, seed: UInt64) {
        guard seed % 2 == 0, let key = snapshot(seed: seed).sortedExperiments.first(where: { $0.status != .resolved })?.key else { return }
        sandbox.ok(["set-payload", key, "control", #"{"big":1.50e3,"e":1E-7,"list":[0.10,-0.0,2],"s":"<\/b>"}"#])
    }

    @Test(arguments: 1...16 as ClosedRange<UInt64>)
    func clientExportIsTheEncodersBytes(seed: UInt64) throws {
        let sandbox = try Sandbox(storeBytes: Self.storeBytes(seed: seed))
        Self.setOddPayload(sandbox, seed: seed)
        Self.expectReferenceBytes(sandbox, keys: Self.snapshot(seed: seed).experiments.keys.sorted(), "seed \(seed)", formats: [["client"]])
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func growthBookExportIsTheEncodersBytes(seed: UInt64) throws {
        let sandbox = try Sandbox(storeBytes: Self.storeBytes(seed: seed))
        Self.setOddPayload(sandbox, seed: seed)
        Self.expectReferenceBytes(sandbox, keys: [], "seed \(seed)", formats: [["growthbook", "--values", "names"], ["growthbook", "--values", "payloads"]])
    }

    /// Every export `formats` names of `sandbox`'s store, of all its experiments and of the first of
    /// `keys`, equal to the reference encoder's (`ExportReference`): the same bytes, refusals and
    /// warnings, on standard output and in a file (and no file on a refusal).
    static func expectReferenceBytes(_ sandbox: Sandbox, keys: [String], _ label: String,
                                     formats: [[String]] = [["client"], ["growthbook", "--values", "names"], ["growthbook", "--values", "payloads"]]) {
        guard let bytes = sandbox.storeBytes(), let snapshot = try? StoreSnapshot.decode(bytes, path: sandbox.store) else {
            Issue.record("\(label): the store does not load")
            return
        }
        for format in formats {
            let values = format.count > 2 ? GrowthBookExport.Values(rawValue: format[2]) : format == ["growthbook"] ? .names : nil
            for chosen in Set([[], Array(keys.prefix(1))]) {
                let arguments = ["export", "--format"] + format + chosen
                guard let reference = try? ExportReference.export(snapshot, keys: chosen, values: values) else {
                    Issue.record("\(label) \(arguments): the reference cannot encode it")
                    continue
                }
                let out = sandbox.path("out.json")
                for toFile in [false, true] {
                    let run = sandbox.run(arguments + (toFile ? ["--out", out] : []))
                    let written = toFile ? FileManager.default.contents(atPath: out) : run.stdoutData
                    switch reference {
                    case .exported(let data, let warnings):
                        let listing = snapshot.sortedExperiments.filter { (chosen.isEmpty || chosen.contains($0.key)) && !$0.whitelist.isEmpty }
                        let said = warnings.map { "abconsole: warning: \(SafeOutput.text($0))\n" }.joined()
                            + (ExportCommand.Export.whitelistNote(listing.map(\.key)).map { "abconsole: note: \(SafeOutput.text($0))\n" } ?? "")
                        #expect(run.code == 0 && run.stderr == said, "\(label) \(arguments) file \(toFile): \(run.stderr)")
                        #expect(written == data, "\(label) \(arguments) file \(toFile): the bytes differ")
                    case .refused(let message):
                        #expect(run.code == 65 && run.stderr.contains(SafeOutput.text(message)), "\(label) \(arguments): \(run.stderr)")
                        #expect(!FileManager.default.fileExists(atPath: out), "\(label) \(arguments): nothing written on a refusal")
                    }
                }
                try? FileManager.default.removeItem(atPath: out)
            }
        }
    }
}
