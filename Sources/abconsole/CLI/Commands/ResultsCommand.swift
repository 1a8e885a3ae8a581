import ExperimentCore
import ExperimentResults
import ResultsReading
import Foundation

/// `results EXP`: the evidence to resolve a winner, from the event logs or a pre-aggregated summary (SPEC §8).
enum ResultsCommand {
    static let evidence = EvidenceOptions(
        exposures: Option("--exposures", "PATH", "exposures log, .jsonl/.ndjson or .csv, or a directory of exposures-* logs (default $ABCONSOLE_EXPOSURES, else events/exposures.jsonl beside the store)",
                          repeatable: true),
        conversions: Option("--conversions", "PATH", "conversions log, or a directory of conversions-* logs (default $ABCONSOLE_CONVERSIONS, else events/conversions.jsonl beside the store)",
                            repeatable: true),
        summary: Option("--summary", "FILE", "pre-aggregated CSV metric,type,variant,subjects,sum,sum_squares instead of the logs"))
    static let metric = Option("--metric", "NAME", "only this metric (default: every metric in the conversions)", repeatable: true)
    static let engineName = Option("--engine", "bayesian|frequentist", "the statistics engine (default bayesian)", choices: ["bayesian", "frequentist"])
    static let sequential = Flag("--sequential", "frequentist with GrowthBook's sequential confidence intervals")
    static let correction = Option("--correction", "holm|bh", "frequentist: adjust the goal's p-values over its variants (Holm, or Benjamini–Hochberg)",
                                   choices: PValueCorrection.allCases.map(\.rawValue))
    static let from = Option("--from", "TIME", "window start, RFC 3339 or a date (default: the current phase's start)")
    static let to = Option("--to", "TIME", "window end, RFC 3339 or a date, its end included (default: the resolve, else now)")
    static let conversionWindowHours = Option("--conversion-window", "HOURS", "count conversions only up to HOURS after the first exposure")
    static let cuped = Flag("--cuped", "CUPED: reduce variance with each subject's same metric before its first exposure")
    static let lookbackDays = Option("--lookback", "DAYS", "with --cuped: the days before the first exposure that count (default 14)")
    static let allMetrics = Flag("--all-metrics", "after the goal and guardrails, every other metric too (default when the experiment names none)")

    static let options: [any DeclaredOption] = [
        evidence.exposures, evidence.conversions, evidence.summary, metric, engineName, sequential, correction, from, to,
        conversionWindowHours, cuped, lookbackDays, allMetrics, CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        let key = try arguments.required("EXP")
        let experiment = try context.experiment(key, in: snapshot)
        let engine = try engine(arguments)
        let correction = try arguments.choice(Self.correction, as: PValueCorrection.self)
        if correction != nil, engine.isBayesian {
            throw CLIError.usage("--correction adjusts p-values, and the Bayesian engine gives a chance to win instead; add --engine frequentist (or --sequential)", command: nil)
        }
        let window = try window(arguments, experiment, snapshot, context)
        let metrics = MetricRole.wanted(given: arguments.all(metric), named: experiment.metrics,
                                        allMetrics: arguments[allMetrics])
        let analysis = try analyze(arguments, context, experiment, window: window, metrics: metrics)
        var report = ResultsReport(analysis, engine: engine, named: experiment.metrics)
        if let correction { report = report.corrected(by: correction) }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(ResultsJSON(report)))
        } else {
            ResultsText.lines(report).forEach(context.output.line)
        }
    }

    /// The window of `--from`/`--to` over the current phase; an empty one is refused.
    static func window(_ arguments: ParsedArguments, _ experiment: Experiment, _ snapshot: StoreSnapshot, _ context: CommandContext,
                       from fromOption: Option = from, to toOption: Option = to) throws -> ResultsWindow {
        let from = try time(arguments, fromOption, end: false), to = try time(arguments, toOption, end: true)
        let window: ResultsWindow
        do {
            window = try ResultsWindow.resolve(experiment, history: snapshot.history, now: context.now(), from: from, to: to)
        } catch {
            throw CLIError.data(error.message)
        }
        guard window.from <= window.to else {
            throw CLIError.usage("the window is empty: it starts \(ResultsFormat.time(window.from)) and ends \(ResultsFormat.time(window.to))", command: nil)
        }
        return window
    }

    /// The analysis of `--summary`, else of the event logs (given, else the defaults beside the store).
    static func analyze(_ arguments: ParsedArguments, _ context: CommandContext, _ experiment: Experiment,
                        window: ResultsWindow, metrics: [String], options: EvidenceOptions = evidence) throws -> Analysis {
        do {
            return try readEvidence(arguments, context, experiment, window: window, metrics: metrics, options: options)
        } catch let error as EventError {
            throw CLIError(error)
        }
    }

    /// `analyze` with a failure to read the logs or the summary left as the `EventError` it is (the resolve's evidence tells it apart).
    /// `options` are the reading command's own declarations; the analysis options of `results` are absent from the others' lines.
    static func readEvidence(_ arguments: ParsedArguments, _ context: CommandContext, _ experiment: Experiment,
                             window: ResultsWindow, metrics: [String], options: EvidenceOptions) throws -> Analysis {
        do {
            if let summary = arguments[options.summary] {
                if let option = arguments.given([options.exposures, options.conversions, conversionWindowHours]).first {
                    throw CLIError.usage("\(option.name) does not apply with --summary (the summary is already aggregated)", command: nil)
                }
                return try SummaryReader.read(path: summary, experiment: experiment, window: window, metrics: metrics,
                                              cuped: arguments[cuped])
            }
            let paths = EventPaths(besideStore: context.store.path, environment: context.environment)
            let request = AnalysisRequest(
                experiment: experiment, window: window,
                exposuresPaths: arguments.all(options.exposures, default: [paths.exposures]),
                conversionsPaths: arguments.all(options.conversions, default: [paths.conversions]),
                metrics: metrics, conversionWindow: try conversionWindow(arguments), lookback: try lookback(arguments))
            return try Analyzer.analyze(request, parallelism: context.readParallelism)
        }
    }

    /// Whether the command line names event logs or a summary, or the default logs exist: evidence to read.
    static func hasEvidence(_ arguments: ParsedArguments, _ context: CommandContext, options: EvidenceOptions) -> Bool {
        if !arguments.given([options.summary, options.exposures, options.conversions]).isEmpty { return true }
        let paths = EventPaths(besideStore: context.store.path, environment: context.environment)
        return FileManager.default.fileExists(atPath: paths.exposures) && FileManager.default.fileExists(atPath: paths.conversions)
    }

    /// The engine of `--engine` (the parser allows only `bayesian` and `frequentist`); `--sequential` alone means frequentist.
    private static func engine(_ arguments: ParsedArguments) throws -> StatsEngine {
        let sequential = arguments[Self.sequential]
        guard let name = arguments[engineName] else { return sequential ? .frequentist(sequential: true) : .bayesian }
        guard name == "bayesian" else { return .frequentist(sequential: sequential) }
        guard !sequential else { throw CLIError.usage("--sequential applies to the frequentist engine, not bayesian", command: nil) }
        return .bayesian
    }

    /// `--from`/`--to` as nanoseconds: RFC 3339, or a date `YYYY-MM-DD` (UTC) meaning its first
    /// instant for `--from` and its last for `--to`, as `history --since` takes a date.
    static func time(_ arguments: ParsedArguments, _ option: Option, end: Bool) throws -> Int64? {
        guard let text = arguments[option] else { return nil }
        let name = option.name
        if text.utf8.count == 10, case .success(let start) = EventTime.parse(text + "T00:00:00Z") {
            return end ? start + 86_400_000_000_000 - 1 : start
        }
        switch EventTime.parse(text) {
        case .success(let nanos): return nanos
        case .failure(let problem): throw CLIError.usage("\(name) `\(text)`: \(problem.reason)", command: nil)
        }
    }

    /// `--cuped`'s lookback in nanoseconds (nil without `--cuped`); `--lookback` without `--cuped` is refused.
    static func lookback(_ arguments: ParsedArguments) throws -> Int64? {
        let text = arguments[lookbackDays]
        guard arguments[cuped] else {
            if text != nil { throw CLIError.usage("--lookback applies with --cuped", command: nil) }
            return nil
        }
        guard let text else { return AnalysisRequest.nanos(hours: AnalysisRequest.defaultLookbackDays * 24) }
        guard let days = DecimalText.value(text), days.isFinite, days > 0, days <= 3_650 else {
            throw CLIError.usage("--lookback must be a number of days above 0 and at most 3650, not `\(SafeOutput.text(text))`", command: nil)
        }
        return AnalysisRequest.nanos(hours: days * 24)
    }

    static func conversionWindow(_ arguments: ParsedArguments) throws -> Int64? {
        guard let text = arguments[conversionWindowHours] else { return nil }
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
