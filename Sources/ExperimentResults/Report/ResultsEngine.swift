/// Which statistics engine compares the variants (SPEC §8 "Statistics").
public enum ResultsEngine: Equatable, Sendable {
    case bayesian
    case frequentist(sequential: Bool)

    /// The engine's name in `--json` and on screen.
    public var name: String {
        switch self {
        case .bayesian: "bayesian"
        case .frequentist: "frequentist"
        }
    }

    public var isBayesian: Bool { self == .bayesian }
}
