/// Every experiment of a store compiled for decisions: what `assign` and `inspect` answer from.
public struct AssignmentIndex: Sendable {
    public let experiments: [String: CompiledExperiment]

    public init(_ snapshot: StoreSnapshot) {
        experiments = snapshot.experiments.mapValues(CompiledExperiment.init)
    }

    /// The decision of experiment `key` for `subject`; nil when the key is unknown.
    public func decide(_ key: String, for subject: Subject) -> Decision? {
        experiments[key]?.decide(for: subject)
    }

    /// The client's answer: one variant per known key, and the unknown keys in the order asked.
    public func assign(_ keys: [String], to subject: Subject) -> Assignment {
        var variants: [String: String] = [:]
        var unknown: [String] = []
        for key in keys {
            if let experiment = experiments[key] {
                variants[key] = experiment.names[experiment.variantIndex(for: subject)]
            } else if !unknown.contains(key) {
                unknown.append(key)
            }
        }
        return Assignment(variants: variants, unknown: unknown)
    }
}

/// What a client is told: variant by experiment key, no metadata; unknown keys listed apart.
public struct Assignment: Hashable, Sendable, Codable {
    public let variants: [String: String]
    public let unknown: [String]
}
