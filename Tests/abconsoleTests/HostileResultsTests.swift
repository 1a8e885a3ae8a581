#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `results` and `export` against hostile input through the real process: never a trap, a hang, an
/// `inf`/`nan` or a lost store; each refusal one sentence with its exit code, naming file, line and field.
@Suite struct HostileResultsTests {
    typealias R = ResultsCommandTests
    static let later = R.later
    static let header = "metric,type,variant,subjects,sum,sum_squares\n"

    /// Runs `abconsole --store … arguments`, killed after `seconds` (a hang fails the test instead of blocking it).
    static func runBounded(_ sandbox: Sandbox, _ arguments: [String], env: [String: String] = later, seconds: Double = 20,
                           sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        let running = CLI.spawn(CLI.executable, ["--store", sandbox.store] + arguments, env: env, directory: sandbox.directory,
                                sourceLocation: sourceLocation)
        let hung = Flag()
        let watchdog = DispatchWorkItem {
            guard running.process.isRunning else { return }
            hung.set()
            running.process.terminate()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let result = running.wait(sourceLocation: sourceLocation)
        watchdog.cancel()
        if hung.isSet { Issue.record("`\(arguments.joined(separator: " "))` still running after \(seconds) s", sourceLocation: sourceLocation) }
        return result
    }

    /// A flag set by the watchdog thread.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    static func expectFinite(_ result: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in ["inf", "nan", "NaN"] {
            let words = (result.stdout + " " + result.stderr).split { !$0.isLetter }.map(String.init)
            #expect(!words.contains(word), "`\(word)` in the output: \(result.stdout.prefix(400)) \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    // 1
    @Test func summarySubjectCountsPastTheLargestCountAreRefused() throws {
        let sandbox = try R.sandbox()
        let summary = try sandbox.write("s.csv", Self.header + "buy,proportion,control,5000000000000000000,1,1\nbuy,proportion,green,5000000000000000000,1,1\n")
        sandbox.refused(["results", "running_exp", "--summary", summary], code: 65, "s.csv:2: field `subjects`: more than 2^53 subjects", env: Self.later)
    }

    // 2
    @Test func conversionWindowsPastSixtyFourBitsAreRefusedOrHeld() throws {
        let sandbox = try R.sandbox()
        for hours in ["1e300", "2562048", "inf", "nan", "0", "-1"] {
            sandbox.refused(["results", "running_exp", "--conversion-window", hours], code: 64, "up to 2,562,047", env: Self.later)
        }
        // The longest window allowed: first exposure + limit passes 2262, so every later conversion counts.
        let result = sandbox.ok(["results", "running_exp", "--conversion-window", "2500000", "--json"], env: Self.later)
        let plain = sandbox.ok(["results", "running_exp", "--json"], env: Self.later)
        #expect(result.stdout == plain.stdout)
    }

    // 3
    @Test func clocksAndHistoryOutsideNanosecondTimeDoNotCrash() throws {
        let sandbox = try R.sandbox()
        for now in ["2262-04-12T00:00:00Z", "2300-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
            let result = Self.runBounded(sandbox, ["results", "running_exp", "--json"], env: ["ABCONSOLE_NOW": now])
            #expect(result.code == 0, "\(now): \(result.stderr)")
            #expect(result.stdout.contains("\"to\": \"2262-04-11T23:47:16.854775807Z\""), "\(now): \(result.stdout.prefix(300))")
        }
        // A history entry dated 2300 or 1600 (validate accepts both): held at the ends of nanosecond time.
        let text = String(decoding: try #require(sandbox.storeBytes()), as: UTF8.self)
        for (year, code) in [("2300", Int32(64)), ("1600", Int32(0))] {
            let moved = text.replacingOccurrences(of: "\"start\", \"after\": \"running\", \"at\": \"2026-03-01T10:00:00Z\"",
                                                  with: "\"start\", \"after\": \"running\", \"at\": \"\(year)-03-01T10:00:00Z\"")
            #expect(moved != text)
            try Data(moved.utf8).write(to: URL(fileURLWithPath: sandbox.store))
            #expect(Self.runBounded(sandbox, ["validate"]).code == 0)
            let result = Self.runBounded(sandbox, ["results", "running_exp"])
            #expect(result.code == code, "\(year): \(result.stderr)")
        }
    }

    // 4
    @Test func endlessLinesAndDevicesAreRefused() throws {
        let sandbox = try R.sandbox()
        let long = String(repeating: "x", count: (16 << 20) + 10)
        _ = try sandbox.write("events/exposures.jsonl", R.defaultExposures.joined(separator: "\n") + "\n" + long)
        sandbox.refused(["results", "running_exp"], code: 65, "events/exposures.jsonl:41: the line is longer than 16 MiB", env: Self.later)
        try FileManager.default.removeItem(atPath: sandbox.path("events/exposures.jsonl"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("events/exposures.jsonl"), withDestinationPath: "/dev/zero")
        let result = Self.runBounded(sandbox, ["results", "running_exp"])
        #expect(result.code == 66 && result.stderr.contains("it is a device, not a regular file"), "\(result.code): \(result.stderr)")
    }

    // 5
    @Test func manyDistinctMetricsAreStoredSparsely() throws {
        // Each name is looked up in a dictionary and holds only its converted subjects (memory ∝ rows).
        let exposures = (0..<2_000).map { R.exposure("u\($0)", $0 % 2 == 0 ? "control" : "green") }
        let conversions = (0..<5_000).map { "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u\($0 % 2_000)\",\"metric\":\"m\($0)\"}" }
        let sandbox = try R.sandbox(exposures: exposures, conversions: conversions)
        let result = Self.runBounded(sandbox, ["results", "running_exp"], seconds: 120)
        #expect(result.code == 0, Comment(rawValue: result.stderr))
        #expect(result.lines.filter { $0.hasSuffix(" (proportion)") }.count == 5_000)
        let one = sandbox.ok(["results", "running_exp", "--metric", "m4999", "--json"], env: Self.later)
        let variants = try #require(((try JSONSerialization.jsonObject(with: one.stdoutData) as? [String: Any])?["metrics"] as? [[String: Any]])?
            .first?["variants"] as? [[String: Any]])
        #expect(variants.map { $0["sum"] as? Double } == [0, 1] && variants.map { $0["subjects"] as? Int } == [1_000, 1_000])
    }

    // 6
    @Test func aFifoEventLogIsRefusedAtOnce() throws {
        let sandbox = try R.sandbox()
        try FileManager.default.removeItem(atPath: sandbox.path("events/conversions.jsonl"))
        #expect(mkfifo(sandbox.path("events/conversions.jsonl"), 0o644) == 0)
        let result = Self.runBounded(sandbox, ["results", "running_exp"], seconds: 10)
        #expect(result.code == 66 && result.stderr.contains("events/conversions.jsonl: cannot be read: it is a FIFO"), "\(result.code): \(result.stderr)")
        let summary = sandbox.path("fifo.csv")
        #expect(mkfifo(summary, 0o644) == 0)
        let refused = Self.runBounded(sandbox, ["results", "running_exp", "--summary", summary], seconds: 10)
        #expect(refused.code == 66 && refused.stderr.contains("it is a FIFO"), "\(refused.code): \(refused.stderr)")
    }

    // 8
    @Test func exportOutNeverReplacesTheStore() throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link.json"), withDestinationPath: sandbox.store)
        #expect(link(sandbox.store, sandbox.path("hard.json")) == 0)
        for out in [sandbox.store, sandbox.path("link.json"), sandbox.path("hard.json"), "./experiments.json"] {
            sandbox.refused(["export", "--format", "client", "--out", out], code: 64, "is the store itself")
            sandbox.refused(["export", "--format", "growthbook", "--out", out], code: 64, "is the store itself")
        }
        #expect(sandbox.storeBytes() == before)
        #expect(mkfifo(sandbox.path("fifo.json"), 0o644) == 0)
        let fifo = Self.runBounded(sandbox, ["export", "--format", "client", "--out", sandbox.path("fifo.json")], env: [:], seconds: 10)
        #expect(fifo.code == 74 && fifo.stderr.contains("it is a FIFO (named pipe), not a regular file"), "\(fifo.code): \(fifo.stderr)")
        sandbox.ok(["list"])
    }

    // 9
    @Test func sumsPastTheDoubleRangeAreRefusedNamingTheLine() throws {
        let big = (0..<4).map { "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u\($0 * 2)\",\"metric\":\"amount\",\"value\":1e308}" }
        let sandbox = try R.sandbox(conversions: R.defaultConversions + big)
        for extra in [[], ["--json"]] {
            let result = sandbox.refused(["results", "running_exp"] + extra, code: 65, "events/conversions.jsonl:", env: Self.later)
            #expect(result.stderr.contains("field `value`") && result.stderr.contains("add up past the largest number"), Comment(rawValue: result.stderr))
            Self.expectFinite(result)
        }
        let same = (0..<2).map { _ in "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u0\",\"metric\":\"amount\",\"value\":1.5e308}" }
        let one = try R.sandbox(conversions: R.defaultConversions + same)
        let lineNumber = R.defaultConversions.count + 2
        one.refused(["results", "running_exp"], code: 65, "events/conversions.jsonl:\(lineNumber): field `value`: the values of subject `u0`", env: Self.later)
    }

    // 10
    @Test func impossibleSummaryRowsAreRefusedNamingTheField() throws {
        let sandbox = try R.sandbox()
        let cases: [(String, String)] = [
            ("buy,proportion,control,20,10.5,10.5", "field `sum`: a proportion's sum counts converted subjects"),
            ("buy,proportion,control,20,7,9", "field `sum_squares`: a proportion's sum of squares equals its sum"),
            ("buy,proportion,control,100,150,150", "field `sum`: 150 conversions among 100 subjects"),
            ("buy,proportion,control,100,-5,-5", "field `sum`: -5 conversions among 100 subjects"),
            ("rev,mean,control,10,100,500", "field `sum_squares`: sum of squares 500.0 is less than sum²/subjects = 1000.0"),
            ("rev,mean,control,0,5,25", "field `sum`: sum and sum of squares must be 0 when there are no subjects"),
        ]
        for (index, (row, phrase)) in cases.enumerated() {
            let summary = try sandbox.write("s\(index).csv", Self.header + "buy,proportion,green,20,5,5\n" + row + "\n")
            sandbox.refused(["results", "running_exp", "--summary", summary], code: 65, "s\(index).csv:3: \(phrase)", env: Self.later)
        }
    }

    // 11
    @Test func aLargeOffsetKeepsTheVarianceFromRawLogs() throws {
        // Amounts around 1e13 spread by 1e4: Σx² − (Σx)²/n cancels to nothing; two passes keep it.
        let control = (0..<20).map { 1e13 + Double($0) * 1_000 }
        let green = (0..<20).map { 1e13 + 5_000 + Double($0) * 1_100 }
        let exposures = (0..<40).map { R.exposure("u\($0)", $0 < 20 ? "control" : "green") }
        let conversions = (control + green).enumerated().map { index, value in
            "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u\(index)\",\"metric\":\"amount\",\"value\":\(String(format: "%.1f", value))}"
        }
        let sandbox = try R.sandbox(exposures: exposures, conversions: conversions)
        let result = sandbox.ok(["results", "running_exp", "--json", "--engine", "frequentist"], env: Self.later)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let variants = try #require((json["metrics"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])
        #expect(variants[1]["note"] is NSNull, "\(variants[1])")
        // The delta-method interval from the exact sample variances (Welch df), computed here independently.
        func variance(_ values: [Double]) -> Double {
            let mean = values.reduce(0, +) / Double(values.count)
            return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        }
        let meanC = control.reduce(0, +) / 20, meanT = green.reduce(0, +) / 20
        let liftVariance = variance(green) / (20 * meanC * meanC) + variance(control) * meanT * meanT / (20 * pow(meanC, 4))
        let ci = try #require(variants[1]["ci"] as? [Double])
        let lift = (meanT - meanC) / meanC
        let halfWidth = (ci[1] - ci[0]) / 2
        #expect(abs(halfWidth / liftVariance.squareRoot() - 2.024) < 0.01, "half width \(halfWidth), se \(liftVariance.squareRoot())")
        #expect(abs(((ci[0] + ci[1]) / 2 - lift) / lift) < 1e-6)
        // The same sums as a summary cannot carry that spread: said, not guessed.
        let sum = control.reduce(0, +), squares = control.reduce(0) { $0 + $1 * $1 }
        let summary = try sandbox.write("s.csv", Self.header + "amount,mean,control,20,\(sum),\(squares)\n")
        sandbox.refused(["results", "running_exp", "--summary", summary], code: 65, "s.csv:2: field `sum_squares`", env: Self.later)
    }
}
