import Foundation

/// A change the domain refuses, with one sentence a person can act on.
public enum ExperimentError: Error, Hashable, Sendable {
    case unknownExperiment(String)
    case experimentExists(String)
    case invalidKey(String)
    case invalidVariantName(String)
    case invalidSubject(String)
    /// A subject id given with leading or trailing whitespace.
    case subjectWithOuterWhitespace(String)
    case invalidSalt
    case invalidOperator(String)
    case unknownVariant(experiment: String, variant: String, known: [String])
    case duplicateVariant(String)
    case noVariants
    case invalidWeight(text: String, reason: String)
    case weightsOverHundred(experiment: String, total: Weight)
    case forbiddenTransition(experiment: String, from: ExperimentStatus, to: ExperimentStatus)
    case resolvedIsFrozen(experiment: String, what: String)
    case deleteServed(experiment: String, status: ExperimentStatus)
    case notWhitelisted(experiment: String, subject: String)
    /// The subject is already on the whitelist; `entry` is what it holds now (a front may offer to replace it).
    case alreadyWhitelisted(experiment: String, entry: WhitelistEntry)
    case invalidPayload(String)
    /// A payload nesting arrays and objects deeper than `JSONValue.maxLevels`.
    case payloadTooDeep(levels: Int)
    case importRow(line: Int, reason: String)
    /// Several bad lines of an import: the first ones (`ImportProblems.shownLimit`) and how many in all.
    case importRows(problems: [ImportProblem], total: Int)
    case emptyImport
    case textTooLong(field: String, limit: Int)
    /// A goal or guardrail naming no valid metric, a metric named twice, too many guardrails.
    case invalidMetrics(String)
    case conflict(experiment: String, expected: Int, actual: Int, by: String, at: Date)
    /// A ramp plan breaking a rule of SPEC §3 or §14: the sentence says which.
    case invalidPlan(String)
    /// A plan command on an experiment without a plan.
    case noPlan(experiment: String)
    /// A plan command its plan's state refuses (resuming a done plan, advancing a paused one).
    case planState(experiment: String, state: RolloutPlan.State, refused: String)

    /// One clear sentence stating the problem; the fronts add advice about their own commands.
    public var message: String {
        switch self {
        case .unknownExperiment(let key):
            "no experiment `\(key)` in the store"
        case .experimentExists(let key):
            "experiment `\(key)` already exists; pick another key"
        case .invalidKey(let key):
            "`\(key)` is not a valid experiment key; use 1–64 characters from a-z, 0-9, `_`, `.`, `-`, starting with a letter or digit"
        case .invalidVariantName(let name):
            "`\(name)` is not a valid variant name; use 1–64 characters from a-z, 0-9, `_`, `.`, `-`, starting with a letter or digit"
        case .invalidSubject(let subject):
            "subject id `\(subject)` is not valid; use 1–256 characters without control characters"
        case .subjectWithOuterWhitespace(let subject):
            "subject id `\(subject)` starts or ends with a space; ids are matched exactly, so remove the spaces"
        case .invalidSalt:
            "the salt must be 1–256 characters without control characters"
        case .invalidOperator(let name):
            "operator `\(name)` is not valid; use 1–256 characters without control characters"
        case .unknownVariant(let experiment, let variant, let known):
            "experiment `\(experiment)` has no variant `\(variant)`; its variants are \(known.map { "`\($0)`" }.joined(separator: ", "))"
        case .duplicateVariant(let name):
            "variant `\(name)` is named twice; each variant needs its own name"
        case .noVariants:
            "an experiment needs at least one variant"
        case .invalidWeight(let text, let reason):
            "weight `\(text)` \(reason)"
        case .weightsOverHundred(let experiment, let total):
            "the weights of `\(experiment)` would add up to \(total) %; they may add up to 100 % at most"
        case .forbiddenTransition(let experiment, .draft, .resolved):
            "`\(experiment)` is a draft: start it before resolving"
        case .forbiddenTransition(let experiment, .draft, .paused):
            "`\(experiment)` is a draft: start it before pausing (a draft serves no one)"
        case .forbiddenTransition(let experiment, let from, let to):
            "experiment `\(experiment)` is \(from.rawValue) and cannot become \(to.rawValue); " + ExperimentError.lifecycleHint
        case .resolvedIsFrozen(let experiment, let what):
            "experiment `\(experiment)` is resolved; \(what) can no longer change"
        case .deleteServed(let experiment, let status):
            "experiment `\(experiment)` is \(status.rawValue) and has been served; only drafts can be deleted, because old clients keep asking for served experiments"
        case .notWhitelisted(let experiment, let subject):
            "subject `\(subject)` is not on the whitelist of `\(experiment)`"
        case .alreadyWhitelisted(let experiment, let entry):
            "subject `\(entry.subject)` is already whitelisted in `\(experiment)`: variant `\(entry.variant)`, "
                + (entry.note.isEmpty ? "no note" : "note \(WhitelistEntry.quoted(entry.note))")
                + ", added by \(entry.addedBy) at \(ExperimentError.timeText(entry.addedAt)); add --replace to replace it"
        case .invalidPayload(let reason):
            "the payload is not valid JSON: \(reason)"
        case .payloadTooDeep(let levels):
            "the payload nests \(levels) levels of arrays and objects; at most \(JSONValue.maxLevels) are allowed"
        case .importRow(let line, let reason):
            "line \(line): \(reason); nothing was imported"
        case .importRows(let problems, let total):
            "\(total) lines of the CSV file are bad; nothing was imported:"
                + problems.map { "\n  line \($0.line): \($0.reason)" }.joined()
                + (total > problems.count ? "\n  … and \(total - problems.count) more" : "")
        case .emptyImport:
            "the CSV file has no rows; expected lines of subject,variant[,note]"
        case .textTooLong(let field, let limit):
            "the \(field) is longer than \(limit) characters"
        case .invalidMetrics(let reason):
            reason
        case .invalidPlan(let reason):
            reason
        case .noPlan(let experiment):
            "`\(experiment)` has no ramp plan; set one with `abconsole ramp-plan \(experiment) STEP...`"
        case .planState(let experiment, let state, let refused):
            "the ramp plan of `\(experiment)` is \(state.rawValue.replacingOccurrences(of: "_", with: " ")), so it cannot \(refused)"
        case .conflict(let experiment, let expected, let actual, let by, let at):
            "experiment `\(experiment)` was changed by \(by) at \(ExperimentError.timeText(at)) (revision \(expected) → \(actual)) while you were looking at it; nothing was applied — review the fresh state and try again"
        }
    }

    static let lifecycleHint = "the lifecycle is draft → running ⇄ paused, and running or paused → resolved"

    static func timeText(_ date: Date) -> String {
        TimeLabel.utc(date)
    }
}

extension ExperimentError: LocalizedError {
    public var errorDescription: String? { message }
}
