import ExperimentCore
import Foundation

/// Every change an operator can make to the store; the one write path for console and subcommands.
///
/// A change either adds or removes a whole experiment (`create`, `delete`, which the store applies)
/// or edits one experiment (`edit`, which `Experiment` applies). The static functions below build
/// the edits by their old names, e.g. `.ramp(experiment: "paywall", weights: [...])`.
public enum Change: Hashable, Sendable {
    case create(ExperimentDraft)
    case delete(experiment: String)
    case edit(experiment: String, ExperimentChange)

    /// The key of the experiment the change is about.
    public var experimentKey: String {
        switch self {
        case .create(let draft): draft.key
        case .delete(let key), .edit(let key, _): key
        }
    }
}

/// A change to one existing experiment.
public enum ExperimentChange: Hashable, Sendable {
    case addVariant(name: String, payload: JSONValue?)
    case setPayload(variant: String, payload: JSONValue?)
    /// Replaces the description (what the experiment tests); allowed in every status, as it serves nobody.
    case setDescription(String)
    case start
    case pause
    case ramp(weights: [String: Weight])
    /// Whitelists a subject; one already listed is refused (`alreadyWhitelisted`, carrying its entry) unless `replace`.
    case whitelistAdd(subject: String, variant: String, note: String, replace: Bool = false)
    /// Changes the note of a listed subject, keeping its variant: a replacing `whitelistAdd` (`notWhitelisted` if not listed).
    case whitelistNote(subject: String, note: String)
    case whitelistRemove(subject: String)
    case whitelistImport(rows: [WhitelistRow])
    /// Serves `winner` to everyone; `forced` names the evidence the operator overrode (recorded in the history).
    case resolve(winner: String, forced: String? = nil)
    /// Names the goal and guardrail metrics results judge the variants by (SPEC §12); allowed in every status.
    case setMetrics(ExperimentMetrics)
    case resalt(salt: String)
    /// Sets a ramp plan (SPEC §14); on a running or paused experiment its first step applies at once, on a draft at `start`.
    case setPlan(RolloutPlan)
    case clearPlan
    case pausePlan
    case resumePlan
    /// `advance`'s decision to move an active plan to its next step (a minimal-move ramp; `done` at the last).
    case advancePlan(reason: String)
    /// `advance`'s decision to ramp back to the weights the plan started from (plan state `rolled_back`).
    case rollBackPlan(reason: String)
}

extension Change {
    /// Adds variant `name` at 0 %.
    public static func addVariant(experiment: String, name: String, payload: JSONValue?) -> Change {
        .edit(experiment: experiment, .addVariant(name: name, payload: payload))
    }

    /// Sets or clears (nil) the payload of `variant`.
    public static func setPayload(experiment: String, variant: String, payload: JSONValue?) -> Change {
        .edit(experiment: experiment, .setPayload(variant: variant, payload: payload))
    }

    /// Replaces the description of `experiment`.
    public static func setDescription(experiment: String, description: String) -> Change {
        .edit(experiment: experiment, .setDescription(description))
    }

    /// Starts a draft or resumes a paused experiment.
    public static func start(experiment: String) -> Change { .edit(experiment: experiment, .start) }

    /// Pauses a running experiment (the kill switch).
    public static func pause(experiment: String) -> Change { .edit(experiment: experiment, .pause) }

    /// New weights for the variants named; the others keep theirs.
    public static func ramp(experiment: String, weights: [String: Weight]) -> Change {
        .edit(experiment: experiment, .ramp(weights: weights))
    }

    /// Whitelists `subject` into `variant`; a subject already listed is refused unless `replace`.
    public static func whitelistAdd(experiment: String, subject: String, variant: String, note: String, replace: Bool = false) -> Change {
        .edit(experiment: experiment, .whitelistAdd(subject: subject, variant: variant, note: note, replace: replace))
    }

    /// Changes the note of `subject`, keeping its variant; a subject not listed is refused.
    public static func whitelistNote(experiment: String, subject: String, note: String) -> Change {
        .edit(experiment: experiment, .whitelistNote(subject: subject, note: note))
    }

    /// Removes `subject` from the whitelist.
    public static func whitelistRemove(experiment: String, subject: String) -> Change {
        .edit(experiment: experiment, .whitelistRemove(subject: subject))
    }

    /// Adds or replaces every row, or none.
    public static func whitelistImport(experiment: String, rows: [WhitelistRow]) -> Change {
        .edit(experiment: experiment, .whitelistImport(rows: rows))
    }

    /// Serves `winner` to everyone, forever; `forced` names the evidence overridden with `--force`.
    public static func resolve(experiment: String, winner: String, forced: String? = nil) -> Change {
        .edit(experiment: experiment, .resolve(winner: winner, forced: forced))
    }

    /// Names (or clears, with `.none`) the goal and guardrail metrics of `experiment`.
    public static func setMetrics(experiment: String, metrics: ExperimentMetrics) -> Change {
        .edit(experiment: experiment, .setMetrics(metrics))
    }

    /// Sets the ramp plan of `experiment`.
    public static func setPlan(experiment: String, plan: RolloutPlan) -> Change { .edit(experiment: experiment, .setPlan(plan)) }

    /// Re-buckets every subject under a new salt.
    public static func resalt(experiment: String, salt: String) -> Change {
        .edit(experiment: experiment, .resalt(salt: salt))
    }
}

/// What `create` needs: a key, a type, variants with weights, and optional control, salt and description.
public struct ExperimentDraft: Hashable, Sendable {
    public var key: String
    public var type: SubjectType
    public var variants: [(name: String, weight: Weight)]
    public var control: String?
    public var salt: String?
    public var description: String

    public init(key: String, type: SubjectType, variants: [(name: String, weight: Weight)],
                control: String? = nil, salt: String? = nil, description: String = "") {
        self.key = key
        self.type = type
        self.variants = variants
        self.control = control
        self.salt = salt
        self.description = description
    }

    public static func == (lhs: ExperimentDraft, rhs: ExperimentDraft) -> Bool {
        lhs.key == rhs.key && lhs.type == rhs.type && lhs.control == rhs.control && lhs.salt == rhs.salt
            && lhs.description == rhs.description && lhs.variants.map(\.name) == rhs.variants.map(\.name)
            && lhs.variants.map(\.weight) == rhs.variants.map(\.weight)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(variants.map(\.name))
    }
}

/// One row of a whitelist import, with the line it came from.
public struct WhitelistRow: Hashable, Sendable {
    public var line: Int
    public var subject: String
    public var variant: String
    public var note: String

    public init(line: Int, subject: String, variant: String, note: String) {
        self.line = line
        self.subject = subject
        self.variant = variant
        self.note = note
    }
}

/// Who makes a change and when: injected, never read from globals inside the core.
public struct ChangeContext: Hashable, Sendable {
    public var operatorName: String
    public var now: Date

    public init(operatorName: String, now: Date) {
        self.operatorName = operatorName
        self.now = now
    }

    /// A context at `date` rounded down to its whole second, the precision the store keeps.
    public init(operatorName: String, at date: Date) {
        self.init(operatorName: operatorName, now: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}

/// What a change did, for the operator.
public struct ChangeOutcome: Hashable, Sendable {
    /// One sentence saying what happened.
    public var message: String
    /// The ramp's plan, for ramps.
    public var ramp: RampPlan?
    /// The experiment's new revision (nil when it was deleted).
    public var revision: Int?
}
