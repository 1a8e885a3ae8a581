import ExperimentCore
@testable import ExperimentResults
@testable import ResultsReading
import Foundation

/// A hand-made experiment and logs in a temp directory, for the per-subject rules.
final class LogSandbox {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("results-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes `lines` to `name` and returns its path.
    func write(_ name: String, _ lines: [String]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

enum ResultsFixture {
    /// `checkout`: control (50 %) and green (50 %), `vip` whitelisted to green.
    static func experiment() -> Experiment {
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        return Experiment(
            key: "checkout", type: .user, status: .running, salt: "checkout", control: "control", winner: nil, description: "",
            revision: 2, createdAt: date, updatedAt: date, updatedBy: "t",
            variants: [Variant(name: "control", weight: Weight(buckets: 5000), ranges: [BucketRange(0, 5000)]),
                       Variant(name: "green", weight: Weight(buckets: 5000), ranges: [BucketRange(5000, 10000)])],
            whitelist: [SubjectID("vip"): WhitelistEntry(subject: "vip", variant: "green", note: "", addedBy: "t", addedAt: date)])
    }

    /// 2026-01-01T00:00:00Z + `hours`, in nanoseconds.
    static func at(hours: Double) -> Int64 { 1_767_225_600_000_000_000 + Int64(hours * 3_600e9) }

    /// An exposure row in JSON Lines at `hours` after 2026-01-01T00:00:00Z.
    static func exposure(_ subject: String, _ variant: String, hours: Double, experiment: String = "checkout") -> String {
        "{\"timestamp\":\"\(EventTime.format(at(hours: hours)))\",\"experiment\":\"\(experiment)\",\"variant\":\"\(variant)\",\"subject\":\"\(subject)\"}"
    }

    /// A conversion row in JSON Lines.
    static func conversion(_ subject: String, _ metric: String, hours: Double, value: Double? = nil) -> String {
        "{\"timestamp\":\"\(EventTime.format(at(hours: hours)))\",\"subject\":\"\(subject)\",\"metric\":\"\(metric)\"" + (value.map { ",\"value\":\($0)" } ?? "") + "}"
    }

    /// Analyses `exposures` and `conversions` over the window 0 h … 100 h.
    static func analyze(_ exposures: [String], _ conversions: [String], conversionWindowHours: Double? = nil,
                        metrics: [String] = []) throws -> Analysis {
        let sandbox = try LogSandbox()
        let window = ResultsWindow(from: at(hours: 0), to: at(hours: 100), weights: ["control": 5000, "green": 5000], weightsChangedInside: false)
        let request = AnalysisRequest(experiment: experiment(), window: window,
                                      exposuresPath: try sandbox.write("exposures.jsonl", exposures),
                                      conversionsPath: try sandbox.write("conversions.jsonl", conversions),
                                      metrics: metrics, conversionWindow: conversionWindowHours.flatMap(AnalysisRequest.nanos(hours:)))
        return try Analyzer.analyze(request, parallelism: .ofTheProcess)
    }
}

extension ReadParallelism {
    /// As `abconsole` chooses: one thread per core, or what `ABCONSOLE_THREADS` / `ABCONSOLE_READ_CHUNK` say.
    static var ofTheProcess: ReadParallelism {
        ReadParallelism(environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)
    }
}
