/// The whole store in memory: every experiment and the history of every change.
public struct StoreSnapshot: Hashable, Sendable {
    /// The only schema version this build reads and writes.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// Incremented by every change to the store.
    public var revision: Int
    public var experiments: [String: Experiment]
    /// Every change, oldest first.
    public var history: [HistoryEntry]
    /// Fields a newer abconsole wrote that this one does not know, by name: kept through every change and merge (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    public init(schemaVersion: Int = StoreSnapshot.currentSchemaVersion, revision: Int = 0,
                experiments: [String: Experiment] = [:], history: [HistoryEntry] = []) {
        self.schemaVersion = schemaVersion
        self.revision = revision
        self.experiments = experiments
        self.history = history
    }

    /// Experiments sorted by key.
    public var sortedExperiments: [Experiment] { experiments.values.sorted { $0.key < $1.key } }
}
