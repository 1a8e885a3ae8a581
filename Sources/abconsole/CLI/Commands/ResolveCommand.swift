#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore
import ExperimentEditing
import ExperimentResults
import ResultsReading
import Foundation

/// `resolve EXP VARIANT`: the guarded resolve of SPEC §12. The evidence first (when logs are
/// readable), refused on a sample-ratio mismatch, a failed guardrail or one without data unless
/// `--force`, and a typed confirmation at a terminal (`--yes` without one). An experiment with a goal
/// or guardrails is judged by its evidence: when the logs (or the summary) cannot be read, it is refused unless `--force`.
enum ResolveCommand {
    static let yes = Flag("--yes", "do not ask to type the key (required without a terminal)")
    static let force = Flag("--force", "resolve despite a sample-ratio mismatch, a failed guardrail, a guardrail without data or unreadable evidence (recorded in the history)")
    static let evidence = EvidenceOptions(
        exposures: Option("--exposures", "PATH", "exposures log or directory for the evidence (default: events/exposures.jsonl beside the store, when present)", repeatable: true),
        conversions: Option("--conversions", "PATH", "conversions log or directory for the evidence (default: events/conversions.jsonl beside the store, when present)", repeatable: true),
        summary: Option("--summary", "FILE", "pre-aggregated CSV for the evidence instead of the logs"))
    static let options: [any DeclaredOption] = [yes, force] + evidence.all

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let key = try arguments.required("EXP"), winner = try arguments.required("VARIANT")
        let snapshot = try context.load()
        let experiment = try context.experiment(key, in: snapshot)
        // The core's one rule for what a status forbids, then the winner: refused before anything is read or asked.
        if let refusal = experiment.refusal(for: .resolve(winner: winner)) { throw refusal }
        guard experiment.variant(named: winner) != nil else {
            throw ExperimentError.unknownVariant(experiment: key, variant: winner, known: experiment.variants.map(\.name))
        }
        let confirmed = arguments[Self.yes]
        let atTerminal = StandardStreams.isTerminal(STDIN_FILENO)
        guard confirmed || atTerminal else {
            throw CLIError.usage("resolving `\(key)` serves `\(winner)` to everyone forever; without a terminal to confirm at, add --yes", command: nil)
        }
        let forced = try evidence(arguments, context, experiment, snapshot: snapshot, winner: winner)
        if !confirmed {
            context.output.flush()
            StandardStreams.writeError("Resolve `\(key)` to `\(winner)`: everyone gets `\(winner)`, forever. Type `\(key)` to confirm: ")
            guard readLine(strippingNewline: true) == key else {
                throw CLIError.usage("the key was not typed; nothing was resolved", command: nil)
            }
        }
        try context.apply(.resolve(experiment: key, winner: winner, forced: forced))
    }

    /// Prints the verdicts when there is evidence and returns what `--force` overrides (nil when
    /// nothing stands in the way); throws the refusal without `--force`. An experiment that names no
    /// metric is resolved without evidence when no log is there; one that names a goal or guardrails
    /// always reads it, and evidence it cannot read stands in the way as a failed guardrail does.
    private static func evidence(_ arguments: ParsedArguments, _ context: CommandContext, _ experiment: Experiment,
                                 snapshot: StoreSnapshot, winner: String) throws -> String? {
        let judged = !experiment.metrics.isEmpty
        guard judged || ResultsCommand.hasEvidence(arguments, context, options: Self.evidence) else { return nil }
        let window: ResultsWindow
        do {
            window = try ResultsWindow.resolve(experiment, history: snapshot.history, now: context.now())
        } catch {
            throw CLIError.data(error.message)
        }
        let metrics = MetricRole.wanted(given: [], named: experiment.metrics, allMetrics: false)
        let objections: [String]
        do {
            let analysis = try ResultsCommand.readEvidence(arguments, context, experiment, window: window, metrics: metrics, options: Self.evidence)
            let report = ResultsReport(analysis, engine: .bayesian, named: experiment.metrics)
            context.output.line("evidence: " + SafeOutput.text(DecisionText.headline(report)))
            objections = DecisionText.resolveObjections(report, winner: winner)
        } catch let error as EventError where judged && error != .cancelled {
            objections = ["no evidence read: " + error.message]
        } catch let error as EventError {
            throw CLIError(error)
        }
        guard !objections.isEmpty else { return nil }
        let reasons = objections.joined(separator: "; ")
        guard arguments[Self.force] else {
            context.output.flush()
            throw CLIError.data("not resolving `\(experiment.key)` to `\(winner)`: \(SafeOutput.text(reasons)); nothing was written (add --force to resolve anyway, recorded in the history)")
        }
        return reasons
    }
}
