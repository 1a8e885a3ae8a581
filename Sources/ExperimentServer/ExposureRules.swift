import ExperimentCore

/// What the exposure intake checks a row against: each experiment's variant names and status.
package struct ExposureRules: Sendable {
    struct Rule: Sendable {
        let variants: [String]
        let status: ExperimentStatus
    }

    /// By experiment key, every experiment of the store (drafts too).
    let experiments: [String: Rule]

    /// The rules of `experiments`.
    init(_ experiments: [Experiment]) {
        self.experiments = Dictionary(experiments.map { ($0.key, Rule(variants: $0.variants.map(\.name), status: $0.status)) },
                                      uniquingKeysWith: { first, _ in first })
    }

    /// The rules of a whole snapshot.
    package init(_ snapshot: StoreSnapshot) {
        self.init(Array(snapshot.experiments.values))
    }
}
