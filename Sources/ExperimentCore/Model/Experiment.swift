import Foundation

/// An A/B experiment: its variants and their buckets, its whitelist and where it is in its lifecycle.
public struct Experiment: Hashable, Sendable {
    public var key: String
    public var type: SubjectType
    /// Changed only by the lifecycle (`Change.start`, `.pause`, `.resolve`), which keeps it and `winner` consistent.
    public package(set) var status: ExperimentStatus
    public var salt: String
    public var control: String
    /// The variant a resolved experiment serves to everyone; nil unless `status` is `.resolved`.
    public package(set) var winner: String?
    public var description: String
    /// Incremented by every change; a change computed against an older revision is refused.
    public var revision: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var updatedBy: String
    public var variants: [Variant]
    /// Whitelisted subjects, keyed by their exact subject id bytes.
    public var whitelist: [SubjectID: WhitelistEntry]
    /// The goal and guardrail metrics results judge the variants by (SPEC §12); stored, never exported.
    public var metrics: ExperimentMetrics
    /// Fields a newer abconsole wrote that this one does not know, by name: kept through every change and merge (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]
    /// The ramp plan a scheduled `advance` carries out (SPEC §14); nil when there is none. Stored, never exported.
    public var plan: RolloutPlan?

    /// An experiment exactly as given, unchecked: the store reader builds what a file holds for the
    /// validator to judge; outside the package experiments come from a store or from `Change.create`.
    package init(
        key: String, type: SubjectType, status: ExperimentStatus, salt: String, control: String, winner: String?,
        description: String, revision: Int, createdAt: Date, updatedAt: Date, updatedBy: String,
        variants: [Variant], whitelist: [SubjectID: WhitelistEntry], metrics: ExperimentMetrics = .none
    ) {
        self.key = key
        self.type = type
        self.status = status
        self.salt = salt
        self.control = control
        self.winner = winner
        self.description = description
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.updatedBy = updatedBy
        self.variants = variants
        self.whitelist = whitelist
        self.metrics = metrics
    }

    /// The variant called `name`, if there is one.
    public func variant(named name: String) -> Variant? { variants.first { $0.name == name } }

    /// The buckets no variant owns, in percent terms.
    public var unallocated: Weight { Weight(buckets: Weight.bucketCount - variants.reduce(0) { $0 + $1.weight.buckets }) }

    /// Whitelist entries sorted by subject id.
    public var sortedWhitelist: [WhitelistEntry] { SubjectOrder.sortedIndices(of: whitelist).map { whitelist[$0].value } }

    /// The whitelist entry of `subject` (byte-exact), if any.
    public func whitelistEntry(for subject: String) -> WhitelistEntry? { whitelist[SubjectID(subject)] }

    /// The weights as `name=pct` pairs in variant order, e.g. `control=50,treatment=50`.
    public var weightSummary: String { HistoryText.weightsText(namedWeights) }

    /// Each variant's name and weight, in variant order.
    public var namedWeights: [NamedWeight] { variants.map { NamedWeight(name: $0.name, weight: $0.weight) } }
}
