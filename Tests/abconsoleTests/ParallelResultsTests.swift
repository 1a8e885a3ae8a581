import Foundation
import Testing

/// `abconsole results` read by several threads in tiny pieces (`ABCONSOLE_THREADS`, `ABCONSOLE_READ_CHUNK`) prints
/// byte for byte what the single-threaded reader prints: the reports, the notes and the first error with its FILE:LINE.
@Suite struct ParallelResultsTests {
    static let single = ["ABCONSOLE_NOW": "2026-03-02T00:00:00Z", "ABCONSOLE_THREADS": "1"]
    /// Threads and piece sizes (bytes) that put piece boundaries everywhere: inside rows, around CRLF and blank lines, mid-character.
    static let parallel: [[String: String]] = [("3", "1"), ("2", "7"), ("4", "64"), ("3", "301"), ("2", "4096")].map {
        ["ABCONSOLE_NOW": "2026-03-02T00:00:00Z", "ABCONSOLE_THREADS": $0.0, "ABCONSOLE_READ_CHUNK": $0.1]
    }

    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let subjects = ["u1", "ü-2", "用户3", "\u{1F600}4", "long-subject-id-over-sixteen-bytes-5", "s,6", "s\"7", "u8", "u9", "ß10"]
        + (11..<60).map { "u\($0)" }

    static func time(_ minutes: Int) -> String {
        let base = 1_772_352_000 + 9 * 3600  // 2026-03-01T09:00:00Z, an hour before the window opens
        let date = Date(timeIntervalSince1970: TimeInterval(base + minutes * 60 + minutes % 7))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date).replacingOccurrences(of: "Z", with: ".\(100 + minutes % 900)Z")
    }

    /// A CSV field, quoted when it holds a comma or a quote.
    static func csv(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// Exposure and conversion logs (`csv` or `jsonl`): repeated, crossed, late and foreign exposures, unknown variants,
    /// values that add up differently in another order, blank lines and CRLF endings here and there.
    static func logs(seed: UInt64, csv useCSV: Bool, rows: Int = 700) -> (exposures: String, conversions: String) {
        var random = Random(state: seed)
        var exposures = useCSV ? "timestamp,experiment,variant,subject\n" : ""
        for _ in 0..<rows {
            let subject = subjects[random.next(subjects.count)]
            let roll = random.next(100)
            let variant = roll < 3 ? "purple" : (roll < 8 ? ["control", "green"][random.next(2)] : (subject.utf8.count % 2 == 0 ? "control" : "green"))
            let experiment = random.next(10) == 0 ? "paused_exp" : "running_exp"
            let at = time(random.next(14 * 60))
            let ending = random.next(9) == 0 ? "\r\n" : "\n"
            if useCSV {
                exposures += "\(at),\(experiment),\(variant),\(csv(subject))" + ending
            } else {
                let escaped = subject.replacingOccurrences(of: "\"", with: "\\\"")
                exposures += "{\"timestamp\":\"\(at)\",\"experiment\":\"\(experiment)\",\"variant\":\"\(variant)\",\"subject\":\"\(escaped)\"}" + ending
            }
            if random.next(25) == 0 { exposures += random.next(2) == 0 ? "\n" : "  \r\n" }
        }
        var conversions = useCSV ? "timestamp,subject,metric,value\n" : ""
        let values = ["0.1", "0.2", "0.3", "1e-3", "123.456", "7", "", "2.5e2", "0.7"]
        for _ in 0..<rows {
            let subject = subjects[random.next(subjects.count)]
            let metric = ["buy", "revenue", "clicks", "ärger"][random.next(4)]
            let value = metric == "buy" ? "" : values[random.next(values.count)]
            let at = time(random.next(15 * 60))
            let ending = random.next(9) == 0 ? "\r\n" : "\n"
            if useCSV {
                conversions += "\(at),\(csv(subject)),\(metric),\(value)" + ending
            } else {
                let escaped = subject.replacingOccurrences(of: "\"", with: "\\\"")
                conversions += "{\"timestamp\":\"\(at)\",\"subject\":\"\(escaped)\",\"metric\":\"\(metric)\"" + (value.isEmpty ? "" : ",\"value\":\(value)") + "}" + ending
            }
        }
        return (exposures, conversions)
    }

    /// The lines of `text` split at each `\n` (a `\r` before it stays; Swift's `Character` would keep `\r\n` whole).
    static func lines(_ text: String) -> [String] {
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes the logs beside a fixture store.
    static func sandbox(_ logs: (exposures: String, conversions: String), ext: String) throws -> Sandbox {
        let sandbox = try Fixture.sandbox()
        _ = try sandbox.write("exposures.\(ext)", logs.exposures)
        _ = try sandbox.write("conversions.\(ext)", logs.conversions)
        return sandbox
    }

    /// Runs `results` single-threaded, then parallel in every setting; each output (code, stdout, stderr) must be the same bytes.
    static func expectSame(_ sandbox: Sandbox, ext: String, _ options: [String], sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        let arguments = ["results", "running_exp", "--exposures", sandbox.path("exposures.\(ext)"), "--conversions", sandbox.path("conversions.\(ext)")] + options
        let reference = sandbox.run(arguments, env: single)
        for environment in parallel {
            let result = sandbox.run(arguments, env: environment)
            let setting = "threads \(environment["ABCONSOLE_THREADS"] ?? "?"), pieces of \(environment["ABCONSOLE_READ_CHUNK"] ?? "?") bytes"
            #expect(result.code == reference.code, "\(setting): exit \(result.code), single-threaded \(reference.code)", sourceLocation: sourceLocation)
            #expect(result.stdoutData == reference.stdoutData, "\(setting): stdout differs", sourceLocation: sourceLocation)
            #expect(result.stderr == reference.stderr, "\(setting): \(result.stderr) ≠ \(reference.stderr)", sourceLocation: sourceLocation)
        }
        return reference
    }

    @Test(arguments: [false, true])
    func reportsAreTheSameBytes(useCSV: Bool) throws {
        let ext = useCSV ? "csv" : "jsonl"
        for seed in [1, 2] as [UInt64] {
            let sandbox = try Self.sandbox(Self.logs(seed: seed, csv: useCSV), ext: ext)
            for options in [["--json"], [], ["--json", "--conversion-window", "3"], ["--json", "--cuped", "--lookback", "1"],
                            ["--json", "--engine", "frequentist", "--metric", "revenue"]] {
                let reference = Self.expectSame(sandbox, ext: ext, options)
                #expect(reference.code == 0, "\(options): \(reference.stderr)")
            }
        }
    }

    @Test(arguments: [false, true])
    func theFirstErrorInFileOrderIsNamedWithItsLine(useCSV: Bool) throws {
        let ext = useCSV ? "csv" : "jsonl"
        let logs = Self.logs(seed: 3, csv: useCSV, rows: 300)
        var lines = Self.lines(logs.exposures)
        // A bad time, then (later in the file) a row with a missing field: the bad time is the error, at its line.
        // (Each at the first row from a nominal line on: blank lines hold no time to break.)
        let row = { (from: Int) in (from..<lines.count).first { lines[$0].contains("2026-03-01T") } ?? from }
        for (bad, later) in [(2, 250), (37, 38), (150, 151), (296, 297)].map({ (row($0.0), max(row($0.1), row($0.0) + 1)) }) {
            var broken = lines
            broken[bad] = broken[bad].replacingOccurrences(of: "2026-03-01T", with: "2026-13-01T")
            broken[later] = useCSV ? "2026-03-01T11:00:00Z,running_exp" : "{\"timestamp\":\"2026-03-01T11:00:00Z\"}"
            let sandbox = try Self.sandbox((broken.joined(separator: "\n"), logs.conversions), ext: ext)
            let reference = Self.expectSame(sandbox, ext: ext, ["--json"])
            #expect(reference.code == 65 && reference.stderr.contains("exposures.\(ext):\(bad + 1): field `timestamp`"), "line \(bad + 1): \(reference.stderr)")
        }
        // A conversion row with an unreadable value, and an incomplete last line (a note, not an error).
        var conversions = Self.lines(logs.conversions)
        conversions[120] = useCSV ? "2026-03-01T11:00:00Z,u1,revenue,1.2.3" : "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u1\",\"metric\":\"revenue\",\"value\":\"x\"}"
        let sandbox = try Self.sandbox((logs.exposures, conversions.joined(separator: "\n")), ext: ext)
        let failed = Self.expectSame(sandbox, ext: ext, ["--json"])
        #expect(failed.code == 65 && failed.stderr.contains("conversions.\(ext):121: field `value`"), "\(failed.stderr)")
        lines = Self.lines(logs.conversions)
        let partial = try Self.sandbox((logs.exposures, lines.dropLast().joined(separator: "\n") + "\n" + String(lines[5].prefix(20))), ext: ext)
        let noted = Self.expectSame(partial, ext: ext, [])
        #expect(noted.code == 0 && (noted.stdout + noted.stderr).contains("the last line is incomplete"), "\(noted.stdout)")
    }

    @Test func aLineOverTheCapIsNamedWithItsLine() throws {
        let logs = Self.logs(seed: 4, csv: true, rows: 200)
        var lines = Self.lines(logs.exposures)
        lines[101] = "2026-03-01T11:00:00Z,running_exp,control," + String(repeating: "x", count: 16 << 20)
        let sandbox = try Self.sandbox((lines.joined(separator: "\n"), logs.conversions), ext: "csv")
        let reference = Self.expectSame(sandbox, ext: "csv", ["--json"])
        #expect(reference.code == 65 && reference.stderr.contains("exposures.csv:102: the line is longer than 16 MiB"), "\(reference.stderr)")
    }
}
