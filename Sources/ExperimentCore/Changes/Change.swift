import Foundation

/// Every change an operator can make to the store; the one write path for console and subcommands.
public enum Change: Hashable, Sendable {
    case create(ExperimentDraft)
    case addVariant(experiment: String, name: String, payload: JSONValue?)
    case setPayload(experiment: String, variant: String, payload: JSONValue?)
    case start(experiment: String)
    case pause(experiment: String)
    case delete(experiment: String)
    case ramp(experiment: String, weights: [String: Weight])
    /// Whitelists a subject; one already listed is refused (`alreadyWhitelisted`, carrying its entry) unless `replace`.
    case whitelistAdd(experiment: String, subject: String, variant: String, note: String, replace: Bool = false)
    case whitelistRemove(experiment: String, subject: String)
    case whitelistImport(experiment: String, rows: [WhitelistRow])
    case resolve(experiment: String, winner: String)
    case resalt(experiment: String, salt: String)

    /// The key of the experiment the change is about.
    public var experimentKey: String {
        switch self {
        case .create(let draft): draft.key
        case .addVariant(let key, _, _), .setPayload(let key, _, _), .start(let key), .pause(let key),
             .delete(let key), .ramp(let key, _), .whitelistAdd(let key, _, _, _, _), .whitelistRemove(let key, _),
             .whitelistImport(let key, _), .resolve(let key, _), .resalt(let key, _):
            key
        }
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
