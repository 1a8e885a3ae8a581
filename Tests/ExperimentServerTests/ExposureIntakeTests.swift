import Dispatch
import ExperimentCore
import ExperimentResults
import ResultsReading
@testable import ExperimentServer
import ExperimentTestSupport
import Foundation
import HTTPServer
import Testing

/// `POST /v1/exposures` and `/v1/conversions` (SPEC §13) against real files in a temp directory,
/// read back by `results`' own analysis.
@Suite struct ExposureIntakeTests {
    /// 2026-01-01T00:00:00Z + `hours`, as an RFC 3339 text.
    static func time(hours: Int) -> String { EventTime.format(1_767_225_600_000_000_000 + Int64(hours) * 3_600_000_000_000) }

    static func exposure(_ subject: String, _ variant: String = "control", hours: Int = 1, experiment: String = "checkout") -> String {
        #"{"timestamp":"\#(time(hours: hours))","experiment":"\#(experiment)","variant":"\#(variant)","subject":"\#(subject)"}"#
    }

    /// A directory and an intake over a running `checkout` (control / treatment), received at `now`.
    struct Sandbox {
        let temp: TempDirectory
        let store: StoreSnapshot
        let intake: ExposureIntake

        init(store: StoreSnapshot? = nil, now: Date = Date(timeIntervalSince1970: 1_767_225_600 + 86_400 * 3)) throws {
            temp = try TempDirectory()
            let snapshot = try store ?? Fixture.snapshot(status: .running)
            self.store = snapshot
            intake = ExposureIntake(directory: temp.url, store: { ExposureRules(snapshot) }, now: { now })
        }

        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: temp.url.path).sorted() }

        func lines(_ name: String) throws -> [String] {
            let text = try String(contentsOfFile: temp.path(name), encoding: .utf8)
            #expect(text.isEmpty || text.hasSuffix("\n"), "the file ends with a whole line")
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// What `results` reads from the directory: subjects exposed to `checkout` over all time.
        func exposedByResults() throws -> Int? {
            let window = ResultsWindow(from: 0, to: Int64.max, weights: ["control": 5000, "treatment": 5000], weightsChangedInside: false)
            let request = AnalysisRequest(experiment: try #require(store.experiments["checkout"]), window: window,
                                          exposuresPaths: [temp.url.path], conversionsPaths: [temp.url.path])
            return try Analyzer.analyze(request, parallelism: .ofTheProcess).subjects.exposed
        }
    }

    struct Answer: Decodable {
        struct Rejection: Decodable, Equatable {
            let index: Int
            let reason: String
        }

        let accepted: Int
        let rejected: [Rejection]
    }

    static func answer(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> Answer {
        #expect(response.status == 200, sourceLocation: sourceLocation)
        #expect(response.headers.contains(HTTPHeader("Content-Type", "application/json")), sourceLocation: sourceLocation)
        return try JSONDecoder().decode(Answer.self, from: response.body)
    }

    static func errorDetails(_ response: HTTPResponse) throws -> String {
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return try #require(object?["errorDetails"] as? String)
    }

    @Test func anArrayKeepsTheValidRowsAndNamesEachRejectedOneByIndex() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let rows = [
            Self.exposure("u1"),
            Self.exposure("u2", experiment: "nope"),
            Self.exposure("u3", "purple"),
            #"{"timestamp":"2026-02-30T00:00:00Z","experiment":"checkout","variant":"control","subject":"u4"}"#,
            #"{"timestamp":"2026-01-01T00:00:00Z","experiment":"checkout","variant":"control"}"#,
            "42",
            Self.exposure("u7", "treatment"),
        ]
        let answer = try Self.answer(box.intake.accept(.exposures, body: Data("[\(rows.joined(separator: ","))]".utf8)))
        #expect(answer.accepted == 2)
        #expect(answer.rejected.map(\.index) == [1, 2, 3, 4, 5])
        #expect(answer.rejected[0].reason.contains("no experiment `nope`"))
        #expect(answer.rejected[1].reason.contains("no variant `purple`") && answer.rejected[1].reason.contains("control, treatment"))
        #expect(answer.rejected[2].reason.contains("field `timestamp`") && answer.rejected[2].reason.contains("day 30"))
        #expect(answer.rejected[3].reason == "field `subject`: missing")
        #expect(answer.rejected[4].reason.contains("JSON object"))
        #expect(try box.files() == ["exposures-2026-01-04.jsonl"])
        #expect(try box.lines("exposures-2026-01-04.jsonl") == [rows[0], rows[6]])
        #expect(try box.exposedByResults() == 2)
    }

    /// SPEC §8: a paused, resolved or draft experiment's answers are not exposures, whatever a client
    /// (told `SPLIT` for them over OFREP) posts.
    @Test(arguments: [ExperimentStatus.paused, .resolved, .draft])
    func exposuresOfAnExperimentNotRunningAtReceiptAreRejectedWithTheReason(status: ExperimentStatus) throws {
        let box = try Sandbox(store: Fixture.snapshot(status: status))
        defer { box.temp.remove() }
        let answer = try Self.answer(box.intake.accept(.exposures, body: Data("[\(Self.exposure("u1")),\(Self.exposure("u2", "treatment"))]".utf8)))
        #expect(answer.accepted == 0)
        #expect(answer.rejected.map(\.index) == [0, 1])
        #expect(answer.rejected.allSatisfy { $0.reason == "field `experiment`: experiment `checkout` is \(status.rawValue), not running: its answers are not exposures" })
        #expect(try box.files() == [])
    }

    @Test func jsonLinesCountBlankLinesOutOfTheIndicesAndKeepEachLineAsPosted() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let good = Self.exposure("u1").replacingOccurrences(of: "{", with: #"{"extra":{"a":[1,2]}, "#)
        let body = "\(good)\r\n\n   \n{\"timestamp\":\"yesterday\",\"experiment\":\"checkout\",\"variant\":\"control\",\"subject\":\"u2\"}\n{not json\n\(Self.exposure("u3"))"
        let answer = try Self.answer(box.intake.accept(.exposures, body: Data(body.utf8)))
        #expect(answer.accepted == 2)
        #expect(answer.rejected.map(\.index) == [1, 2])
        #expect(try box.lines("exposures-2026-01-04.jsonl") == [good, Self.exposure("u3")])
        #expect(try box.exposedByResults() == 2)
    }

    @Test func aPrettyPrintedArrayIsWrittenOneRowALineWithItsValuesAsSent() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let body = """
        [
          {
            "timestamp" : "\(Self.time(hours: 2))",
            "subject" : "line\\nbreak, \\"quoted\\" [x]",
            "metric" : "revenue",
            "value" : 0.1000000000000000055511151231257827
          },
          { "timestamp": "\(Self.time(hours: 3))", "subject": "u2", "metric": "signup" }
        ]
        """
        let answer = try Self.answer(box.intake.accept(.conversions, body: Data(body.utf8)))
        #expect(answer.accepted == 2 && answer.rejected.isEmpty)
        #expect(try box.lines("conversions-2026-01-04.jsonl") == [
            #"{"timestamp":"\#(Self.time(hours: 2))","subject":"line\nbreak, \"quoted\" [x]","metric":"revenue","value":0.1000000000000000055511151231257827}"#,
            #"{"timestamp":"\#(Self.time(hours: 3))","subject":"u2","metric":"signup"}"#,
        ])
    }

    @Test func conversionsAreCheckedByTheConversionRules() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let rows = [#"{"timestamp":"\#(Self.time(hours: 1))","subject":"u1","metric":"m","value":"3"}"#,
                    #"{"timestamp":"\#(Self.time(hours: 1))","subject":"u1"}"#,
                    #"{"timestamp":"\#(Self.time(hours: 1))","subject":"u1","metric":"m"}"#]
        let answer = try Self.answer(box.intake.accept(.conversions, body: Data(rows.joined(separator: "\n").utf8)))
        #expect(answer.accepted == 1)
        #expect(answer.rejected == [.init(index: 0, reason: "field `value`: expected a number"), .init(index: 1, reason: "field `metric`: missing")])
        #expect(try box.lines("conversions-2026-01-04.jsonl") == [rows[2]])
    }

    @Test(arguments: [
        ("", "empty"), ("  \n\t ", "empty"), ("hello", "neither"), ("[{\"a\":1},", "not valid JSON"),
        ("{\"a\":1}", nil), ("[]", nil),
    ] as [(String, String?)])
    func aBodyWithoutRowsIs400AndWritesNothing(body: String, phrase: String?) throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let response = box.intake.accept(.exposures, body: Data(body.utf8))
        if let phrase {
            #expect(response.status == 400)
            #expect(try Self.errorDetails(response).contains(phrase))
        } else {
            #expect(try Self.answer(response).accepted == 0)
        }
        #expect(try box.files().isEmpty)
    }

    @Test func aBodyThatIsNotUTF8Is400() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        var body = Data("[\(Self.exposure("u1"))]".utf8)
        body.insert(0xFF, at: 40)
        let response = box.intake.accept(.exposures, body: body)
        #expect(response.status == 400)
        #expect(try Self.errorDetails(response).contains("UTF-8"))
        #expect(try box.files().isEmpty)
    }

    @Test func withoutAGoodStoreEveryPostIs503AndNothingIsWritten() throws {
        let temp = try TempDirectory()
        defer { temp.remove() }
        let intake = ExposureIntake(directory: temp.url, store: { nil })
        let response = intake.accept(.exposures, body: Data("[\(Self.exposure("u1"))]".utf8))
        #expect(response.status == 503)
        #expect(try Self.errorDetails(response).contains("no good store"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path).isEmpty)
    }

    /// Rows go to the day they are received, whatever day they happened; `results` reads every day's file of the directory.
    @Test func rowsOfManyDaysGoToTheDayOfReceiptAndResultsReadsEveryDay() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let snapshot = box.store
        var expected: [String: Int] = [:]
        for day in 0..<3 {
            let received = Date(timeIntervalSince1970: 1_767_225_600 + Double(day) * 86_400 + 86_399.5)
            let intake = ExposureIntake(directory: box.temp.url, store: { ExposureRules(snapshot) }, now: { received })
            let rows = (0..<10).map { Self.exposure("d\(day)-\($0)", hours: $0 * 24 - 100) }
            #expect(try Self.answer(intake.accept(.exposures, body: Data(rows.joined(separator: "\n").utf8))).accepted == 10)
            expected["exposures-2026-01-0\(day + 1).jsonl"] = 10
        }
        #expect(try box.files() == expected.keys.sorted())
        for name in expected.keys { #expect(try box.lines(name).count == 10) }
        #expect(try box.exposedByResults() == 30)
    }

    /// A part line a crash left at the end of the day's file is cut before the next batch: the file stays whole lines.
    @Test func aPartLineLeftByACrashIsCutBeforeAppending() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let name = "exposures-2026-01-04.jsonl"
        try Data((Self.exposure("u0") + "\n" + #"{"timestamp":"2026-01"#).utf8).write(to: box.temp.url.appendingPathComponent(name))
        #expect(try Self.answer(box.intake.accept(.exposures, body: Data(Self.exposure("u1").utf8))).accepted == 1)
        #expect(try box.lines(name) == [Self.exposure("u0"), Self.exposure("u1")])
        #expect(try box.exposedByResults() == 2)
    }

    /// Many posters at once: every accepted row is in the file exactly once, each line whole, and `results` counts them.
    @Test func concurrentPostersLoseAndDoubleNothing() throws {
        let box = try Sandbox()
        defer { box.temp.remove() }
        let posters = 16, posts = 25, rowsPerPost = 40
        let accepted = LockedCount()
        DispatchQueue.concurrentPerform(iterations: posters) { poster in
            for post in 0..<posts {
                var rows = (0..<rowsPerPost).map { Self.exposure("p\(poster)-\(post)-\($0)", $0 % 2 == 0 ? "control" : "treatment") }
                rows.append(Self.exposure("bad", "purple"))
                let body = post % 2 == 0 ? "[\(rows.joined(separator: ","))]" : rows.joined(separator: "\n")
                let response = box.intake.accept(.exposures, body: Data(body.utf8))
                if response.status == 200, let answer = try? JSONDecoder().decode(Answer.self, from: response.body),
                   answer.rejected.map(\.index) == [rowsPerPost] {
                    accepted.add(answer.accepted)
                }
            }
        }
        let total = posters * posts * rowsPerPost
        #expect(accepted.value == total)
        let lines = try box.lines("exposures-2026-01-04.jsonl")
        #expect(lines.count == total)
        #expect(Set(lines).count == total)
        let expected = Set((0..<posters).flatMap { poster in (0..<posts).flatMap { post in
            (0..<rowsPerPost).map { Self.exposure("p\(poster)-\(post)-\($0)", $0 % 2 == 0 ? "control" : "treatment") }
        } })
        #expect(Set(lines) == expected)
        #expect(try box.exposedByResults() == total)
    }
}

/// A count several threads add to.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ amount: Int) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}

extension ReadParallelism {
    /// As `abconsole` chooses: one thread per core, or what `ABCONSOLE_THREADS` / `ABCONSOLE_READ_CHUNK` say.
    static var ofTheProcess: ReadParallelism {
        ReadParallelism(environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)
    }
}
