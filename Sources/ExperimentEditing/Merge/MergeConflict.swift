import ExperimentCore

/// One unit of the store changed differently on both sides of a merge (SPEC §11): where it is,
/// its three values in the history's words, and the changes that would apply THEIRS (each front words
/// them: the CLI as the commands that make them).
public struct MergeConflict: Hashable, Sendable {
    /// What kind of unit conflicts.
    public enum Unit: String, Hashable, Sendable {
        case allocation, description, payload, metrics, plan, whitelist, existence, field
    }

    /// The experiment's key; nil for a field at the store's top level.
    public var experiment: String?
    public var unit: Unit
    /// The variant of a payload (or of a variant's unknown field); nil otherwise.
    public var variant: String?
    /// The subject of a whitelist entry; nil otherwise.
    public var subject: String?
    /// The name of an unknown field (unit `field`); nil otherwise.
    public var field: String?
    /// The unit's value in BASE, OURS and THEIRS in words; nil where it is absent.
    public var base: String?
    public var ours: String?
    public var theirs: String?
    /// The changes that would apply THEIRS's value over OURS's, in order; empty when no change can
    /// (a field this version does not know, a plan past its first step): the unit is then edited by hand.
    public var changes: [Change]
    /// THEIRS's variants in order: the order the words of `changes` list weights in (a ramp's, a plan's steps).
    public var order: [String]

    public init(experiment: String?, unit: Unit, variant: String? = nil, subject: String? = nil, field: String? = nil,
                base: String?, ours: String?, theirs: String?, changes: [Change] = [], order: [String] = []) {
        self.experiment = experiment
        self.unit = unit
        self.variant = variant
        self.subject = subject
        self.field = field
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.changes = changes
        self.order = order
    }

    /// Names the unit within a merge: experiment, unit, variant, subject and field.
    public var id: String {
        [experiment ?? "", unit.rawValue, variant ?? "", subject ?? "", field ?? ""].joined(separator: "\u{0}")
    }

    /// What the unit is, e.g. `the whitelist entry of user-42 in checkout_button`.
    public var title: String {
        let place = experiment.map { "`\($0)`" } ?? "the store"
        switch unit {
        case .allocation: return "the allocation of \(place)"
        case .description: return "the description of \(place)"
        case .payload: return "the payload of `\(variant ?? "")` in \(place)"
        case .metrics: return "the metrics of \(place)"
        case .plan: return "the ramp plan of \(place)"
        case .whitelist: return "the whitelist entry of \(WhitelistEntry.quoted(subject ?? "")) in \(place)"
        case .existence: return "the existence of \(place)"
        case .field:
            let owner = variant.map { "variant `\($0)` of " } ?? ""
            return "the field `\(field ?? "")` of \(owner)\(place)"
        }
    }
}

/// What a merge gives: the merged store (OURS's value for each conflicting unit) and the conflicts.
public struct MergeResult: Sendable {
    public var snapshot: StoreSnapshot
    public var conflicts: [MergeConflict]
}
