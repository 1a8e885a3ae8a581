import ExperimentCore
import ExperimentResults
import ResultsReading
import Foundation

/// `advance [EXP...]`: carries ramp plans out (SPEC §14). For each running experiment with an active
/// plan (all by default) it reads the current phase's evidence, decides with `Rollout.decide`, and
/// applies an advance or a rollback as one change (one commit with `git-setup --commit-changes`).
enum AdvanceCommand {
    static let evidence = EvidenceOptions(
        exposures: Option("--exposures", "FILE", "exposures log (default $ABCONSOLE_EXPOSURES, else events/exposures.jsonl beside the store)"),
        conversions: Option("--conversions", "FILE", "conversions log (default $ABCONSOLE_CONVERSIONS, else events/conversions.jsonl beside the store)"),
        summary: Option("--summary", "FILE", "one experiment's pre-aggregated CSV (metric,type,variant,subjects,sum,sum_squares) instead of the logs"))
    static let dryRun = Flag("--dry-run", "decide and print, write nothing")
    static let options: [any DeclaredOption] = evidence.all + [dryRun, CommonOptions.json]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let snapshot = try context.load()
        let experiments = try targets(arguments, context, snapshot)
        if arguments[Self.evidence.summary] != nil, experiments.count != 1 {
            throw CLIError.usage("a --summary holds one experiment's totals; name that one experiment (advance EXP --summary FILE)", command: nil)
        }
        let now = context.now()
        // Every decision before any write: evidence that cannot be read leaves the store as it was.
        let decided = try experiments.map { experiment in
            (decision: try decide(experiment, snapshot, arguments, context, now: now), revision: experiment.revision)
        }
        let dryRun = arguments[Self.dryRun], json = arguments[CommonOptions.json]
        // Each change is its own transaction (and commit); its line is printed as soon as it is written.
        for (decision, revision) in decided {
            var moved: Double?
            if let change = decision.change, !dryRun {
                moved = try context.applyCommitting(change, expectedRevision: revision).ramp?.movedShare
            }
            let line = decision.line(movedShare: moved)
            if !json { context.output.line(SafeOutput.text(dryRun && decision.change != nil ? "dry run: \(line); nothing was written" : line)) }
        }
        if json {
            context.output.line(try SafeOutput.json(DecisionsJSON(decisions: decided.map { DecisionJSON($0.decision) })))
        } else if decided.isEmpty {
            context.output.line("no running experiment has an active ramp plan; nothing to do")
        }
    }

    /// The experiments named (each once, in the order given), else every running one with an active plan, by key.
    private static func targets(_ arguments: ParsedArguments, _ context: CommandContext, _ snapshot: StoreSnapshot) throws -> [Experiment] {
        let named = arguments.arguments("EXP")
        guard named.isEmpty else {
            var seen = Set<String>()
            return try named.filter { seen.insert($0).inserted }.map { try context.experiment($0, in: snapshot) }
        }
        return snapshot.experiments.values.filter { Rollout.inactiveReason($0) == nil }.sorted { $0.key < $1.key }
    }

    /// The decision for one experiment: the current phase's evidence is read only when its plan is active.
    private static func decide(_ experiment: Experiment, _ snapshot: StoreSnapshot, _ arguments: ParsedArguments, _ context: CommandContext,
                               now: Date) throws -> RolloutDecision {
        guard Rollout.inactiveReason(experiment) == nil else { return Rollout.decide(experiment, evidence: nil, now: now) }
        let window: ResultsWindow
        do {
            window = try ResultsWindow.resolve(experiment, history: snapshot.history, now: now)
        } catch {
            throw CLIError.data(error.message)
        }
        let metrics = MetricRole.wanted(given: [], named: experiment.metrics, allMetrics: false)
        do {
            let evidence = try ResultsCommand.readEvidence(arguments, context, experiment, window: window, metrics: metrics, options: Self.evidence)
            return Rollout.decide(experiment, evidence: evidence, now: now)
        } catch let error as EventError {
            let code: CLIError.Code = switch error {
            case .unknownFormat, .notCSV: .usage
            case .cancelled: .tempFailure
            case .missing, .unreadable, .malformed: .dataError
            }
            throw CLIError(code: code, message: "no decision for `\(experiment.key)`: its evidence cannot be read: \(error.message); nothing was written")
        }
    }

    /// `{"decisions":[...]}`.
    struct DecisionsJSON: Encodable {
        let decisions: [DecisionJSON]
    }

    /// One decision as SPEC §14 prints it: `step` 1-based, `weights` in percent by variant.
    struct DecisionJSON: Encodable {
        let experiment: String, action: String, step: Int, steps: Int, weights: [String: Double], reason: String

        init(_ decision: RolloutDecision) {
            experiment = decision.experiment
            action = decision.action.rawValue
            step = decision.step
            steps = decision.steps
            weights = Dictionary(decision.weights.map { ($0.name, $0.weight.percent) }, uniquingKeysWith: { _, last in last })
            reason = decision.reason
        }
    }
}
