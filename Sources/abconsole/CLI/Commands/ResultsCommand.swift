import ConsoleUI
import ExperimentCore
import ExperimentResults
import Foundation

/// `results EXP`: the evidence to resolve a winner, from the event logs or a pre-aggregated summary (SPEC §8).
enum ResultsCommand {
    static let options: [OptionSpec] = [
        .value("--exposures", "FILE", "exposures log, .jsonl/.ndjson or .csv (default $ABCONSOLE_EXPOSURES, else events/exposures.jsonl beside the store)"),
        .value("--conversions", "FILE", "conversions log (default $ABCONSOLE_CONVERSIONS, else events/conversions.jsonl beside the store)"),
        .value("--summary", "FILE", "pre-aggregated CSV metric,type,variant,subjects,sum,sum_squares instead of the logs"),
        .value("--metric", "NAME", "only this metric (default: every metric in the conversions)", repeatable: true),
        .value("--engine", "bayesian|frequentist", "the statistics engine (default bayesian)", choices: ["bayesian", "frequentist"]),
        .flag("--sequential", "frequentist with GrowthBook's sequential confidence intervals"),
        .value("--from", "TIME", "window start, RFC 3339 (default: the current phase's start)"),
        .value("--to", "TIME", "window end, RFC 3339 (default: the resolve, else now)"),
        .value("--conversion-window", "HOURS", "count conversions only up to HOURS after the first exposure"),
        .flag("--json", "print JSON"),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        guard let key = arguments.argument("EXP") else { throw CLIError.usage("missing EXP", command: nil) }
        let experiment = try context.experiment(key, in: snapshot)
        let engine = try engine(arguments)
        let from = try time(arguments, "--from"), to = try time(arguments, "--to")
        let window = ResultsWindow.resolve(experiment, history: snapshot.history, now: context.now(), from: from, to: to)
        guard window.from <= window.to else {
            throw CLIError.usage("the window is empty: it starts \(ResultsFormat.time(window.from)) and ends \(ResultsFormat.time(window.to))", command: nil)
        }
        let metrics = arguments.options["--metric"] ?? []
        let analysis: Analysis
        do {
            if let summary = arguments.option("--summary") {
                for option in ["--exposures", "--conversions", "--conversion-window"] where arguments.option(option) != nil {
                    throw CLIError.usage("\(option) does not apply with --summary (the summary is already aggregated)", command: nil)
                }
                analysis = try SummaryReader.read(path: summary, experiment: experiment, window: window, metrics: metrics)
            } else {
                let paths = EventPaths(besideStore: context.store.path, environment: context.environment)
                let request = AnalysisRequest(
                    experiment: experiment, window: window,
                    exposuresPath: arguments.option("--exposures") ?? paths.exposures,
                    conversionsPath: arguments.option("--conversions") ?? paths.conversions,
                    metrics: metrics, conversionWindow: try conversionWindow(arguments))
                analysis = try Analyzer.analyze(request)
            }
        } catch let error as EventError {
            throw CLIError(error)
        }
        let report = ResultsReport(analysis, engine: engine)
        if arguments.flag("--json") {
            context.output.line(try SafeOutput.json(ResultsJSON(report)))
        } else {
            ResultsText.lines(report).forEach(context.output.line)
        }
    }

    private static func engine(_ arguments: ParsedArguments) throws -> ResultsEngine {
        let sequential = arguments.flag("--sequential")
        switch arguments.option("--engine") {
        case nil: return sequential ? .frequentist(sequential: true) : .bayesian
        case "bayesian"?:
            guard !sequential else { throw CLIError.usage("--sequential applies to the frequentist engine, not bayesian", command: nil) }
            return .bayesian
        case "frequentist"?: return .frequentist(sequential: sequential)
        case let other?: throw CLIError.usage("--engine must be bayesian or frequentist, not `\(other)`", command: nil)
        }
    }

    private static func time(_ arguments: ParsedArguments, _ name: String) throws -> Int64? {
        guard let text = arguments.option(name) else { return nil }
        switch EventTime.parse(text) {
        case .success(let nanos): return nanos
        case .failure(let problem): throw CLIError.usage("\(name) `\(text)`: \(problem.reason)", command: nil)
        }
    }

    private static func conversionWindow(_ arguments: ParsedArguments) throws -> Int64? {
        guard let text = arguments.option("--conversion-window") else { return nil }
        guard let hours = DecimalText.value(text), hours.isFinite, hours > 0, let nanos = AnalysisRequest.nanos(hours: hours), nanos > 0 else {
            let most = ResultsFormat.count(Int(AnalysisRequest.maxConversionWindowHours))
            throw CLIError.usage("--conversion-window must be a positive number of hours up to \(most), not `\(SafeOutput.text(text))`", command: nil)
        }
        return nanos
    }
}

extension CLIError {
    /// The exit code of an event-log failure: 66 missing or unreadable, 64 unknown format, 65 a bad row.
    init(_ error: EventError) {
        switch error {
        case .missing, .unreadable: self.init(code: .noInput, message: error.message)
        case .unknownFormat, .notCSV: self.init(code: .usage, message: error.message)
        case .malformed: self.init(code: .dataError, message: error.message)
        case .cancelled: self.init(code: .tempFailure, message: error.message)
        }
    }
}
