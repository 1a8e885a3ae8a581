@testable import ExperimentResults
@testable import ResultsReading
import Testing

/// Every malformed row is an error naming the file, the line and the field; nothing is guessed.
@Suite struct MalformedRowTests {
    typealias F = ResultsFixture

    private func error(exposures: [String], name: String = "exposures.jsonl", conversions: [String] = [], conversionsName: String = "conversions.jsonl") throws -> EventError? {
        let sandbox = try LogSandbox()
        let window = ResultsWindow(from: F.at(hours: 0), to: F.at(hours: 100), weights: [:], weightsChangedInside: false)
        let request = AnalysisRequest(experiment: F.experiment(), window: window,
                                      exposuresPath: try sandbox.write(name, exposures), conversionsPath: try sandbox.write(conversionsName, conversions))
        do {
            _ = try Analyzer.analyze(request, parallelism: .ofTheProcess)
            return nil
        } catch {
            return error
        }
    }

    private func expect(_ error: EventError?, line: Int, field: String?, _ phrase: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .malformed(let file, let actualLine, let actualField, let reason)? = error else {
            Issue.record("expected a malformed-row error, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(file.hasSuffix(".jsonl") || file.hasSuffix(".csv"), sourceLocation: sourceLocation)
        #expect(actualLine == line, sourceLocation: sourceLocation)
        #expect(actualField == field, sourceLocation: sourceLocation)
        #expect(reason.contains(phrase), "“\(reason)” lacks “\(phrase)”", sourceLocation: sourceLocation)
        #expect(error?.message.contains("\(file):\(line): ") == true, sourceLocation: sourceLocation)
    }

    @Test func jsonLines() throws {
        let good = F.exposure("a", "control", hours: 1)
        expect(try error(exposures: [good, "{\"timestamp\":\"2026-02-30T00:00:00Z\",\"experiment\":\"checkout\",\"variant\":\"control\",\"subject\":\"a\"}"]),
               line: 2, field: "timestamp", "day 30 does not exist")
        expect(try error(exposures: [good, good, "{\"timestamp\":\"2026-01-01T00:00:00Z\",\"experiment\":\"checkout\",\"variant\":\"control\"}"]),
               line: 3, field: "subject", "missing")
        expect(try error(exposures: ["{\"timestamp\":\"2026-01-01T00:00:00Z\",\"experiment\":\"checkout\",\"variant\":\"control\",\"subject\":\"\"}"]),
               line: 1, field: "subject", "empty")
        expect(try error(exposures: ["{\"timestamp\":\"2026-01-01T00:00:00Z\",\"experiment\":\"checkout\",\"variant\":true,\"subject\":\"a\"}"]),
               line: 1, field: "variant", "expected a string")
        expect(try error(exposures: [good, "{\"timestamp\":\"2026-01-01T00:00:00Z\",\"experiment\":\"checkout\""]),
               line: 2, field: nil, "expected `,` or `}`")
        expect(try error(exposures: ["[1,2]"]), line: 1, field: nil, "expected a JSON object")
        expect(try error(exposures: [good + " {}"]), line: 1, field: nil, "text after the JSON object")
        expect(try error(exposures: ["{\"timestamp\":\"2026-01-01T00:00:00Z\",\"subject\":\"a\",\"subject\":\"b\",\"experiment\":\"x\",\"variant\":\"v\"}"]),
               line: 1, field: "subject", "given twice")
        expect(try error(exposures: [good], conversions: ["{\"timestamp\":\"2026-01-01T02:00:00Z\",\"subject\":\"a\",\"metric\":\"buy\",\"value\":\"12\"}"]),
               line: 1, field: "value", "expected a number")
    }

    @Test func csv() throws {
        let header = "timestamp,experiment,variant,subject"
        expect(try error(exposures: [header, "2026-01-01T00:00:00Z,checkout,control,a", "2026-01-01T00:00:00,checkout,control,b"], name: "e.csv"),
               line: 3, field: "timestamp", "time zone")
        expect(try error(exposures: ["timestamp,experiment,subject", "2026-01-01T00:00:00Z,checkout,a"], name: "e.csv"),
               line: 1, field: "variant", "the header has no `variant` column")
        expect(try error(exposures: [header, "2026-01-01T00:00:00Z,checkout,control"], name: "e.csv"),
               line: 2, field: "subject", "the row has 3 fields, the header has 4")
        expect(try error(exposures: [header, "2026-01-01T00:00:00Z,checkout,\"control,a"], name: "e.csv"),
               line: 2, field: "variant", "not closed")
        expect(try error(exposures: [header, "2026-01-01T00:00:00Z,checkout,control,"], name: "e.csv"),
               line: 2, field: "subject", "empty")
        expect(try error(exposures: [header, "2026-01-01T01:00:00Z,checkout,control,a"], name: "e.csv",
                         conversions: ["timestamp,subject,metric,value", "2026-01-01T02:00:00Z,a,revenue,12,5"], conversionsName: "c.csv"),
               line: 2, field: nil, "the row has 5 fields")
        expect(try error(exposures: [header, "2026-01-01T01:00:00Z,checkout,control,a"], name: "e.csv",
                         conversions: ["timestamp,subject,metric,value", "2026-01-01T02:00:00Z,a,revenue,twelve"], conversionsName: "c.csv"),
               line: 2, field: "value", "expected a number, not `twelve`")
    }

    @Test func csvReadsQuotesExtraColumnsAndEmptyValues() throws {
        let sandbox = try LogSandbox()
        let window = ResultsWindow(from: F.at(hours: 0), to: F.at(hours: 100), weights: [:], weightsChangedInside: false)
        let request = AnalysisRequest(
            experiment: F.experiment(), window: window,
            exposuresPath: try sandbox.write("e.csv", ["\u{FEFF}subject,extra,timestamp,variant,experiment\r",
                                                       "\"a,1\",x,2026-01-01T01:00:00Z,control,checkout\r",
                                                       "\"b \"\"q\"\"\",,2026-01-01T01:00:00+00:00,green,checkout", ""]),
            conversionsPath: try sandbox.write("c.csv", ["timestamp,subject,metric,value", "2026-01-01T02:00:00Z,\"a,1\",buy,",
                                                         "2026-01-01T02:00:00Z,\"b \"\"q\"\"\",buy,"]))
        let analysis = try Analyzer.analyze(request, parallelism: .ofTheProcess)
        #expect(analysis.metrics.first?.type == .proportion)
        #expect(analysis.metrics.first?.variants.map(\.statistics.sum) == [1, 1])
    }

    @Test func missingFilesAndUnknownFormats() throws {
        let sandbox = try LogSandbox()
        let window = ResultsWindow(from: 0, to: 1, weights: [:], weightsChangedInside: false)
        let exposures = try sandbox.write("e.jsonl", [])
        var request = AnalysisRequest(experiment: F.experiment(), window: window, exposuresPath: exposures, conversionsPath: sandbox.directory.path + "/nope.jsonl")
        #expect(throws: EventError.missing(file: sandbox.directory.path + "/nope.jsonl")) { try Analyzer.analyze(request, parallelism: .ofTheProcess) }
        request.conversionsPath = try sandbox.write("c.txt", [])
        #expect(throws: EventError.unknownFormat(file: request.conversionsPath)) { try Analyzer.analyze(request, parallelism: .ofTheProcess) }
    }
}
