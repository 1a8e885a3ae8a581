import ExperimentStats

/// The statistics engine as a report names it (SPEC §8 "Statistics").
extension ExperimentStats.StatsEngine {
    /// The engine's name in `--json`: `bayesian` or `frequentist`.
    package var name: String {
        switch self {
        case .bayesian: "bayesian"
        case .frequentist: "frequentist"
        }
    }

    /// The engine for people: `Bayesian`, `frequentist` or `frequentist, sequential`.
    package var words: String {
        switch self {
        case .bayesian: "Bayesian"
        case .frequentist(let sequential): sequential ? "frequentist, sequential" : "frequentist"
        }
    }

    package var isBayesian: Bool { self == .bayesian }

    /// The engine a report uses unless told otherwise (SPEC §8): Bayesian.
    package static var standard: Self { .bayesian }
}
