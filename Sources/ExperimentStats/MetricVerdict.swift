/// What a variant's comparison says for a metric with a role (SPEC §12): the goal and other metrics
/// are better, worse or inconclusive; a guardrail is ok or fails, or has no data (no conversion names it in the window).
public enum MetricVerdict: String, Equatable, Sendable {
    case better, worse, inconclusive, ok, fails
    case noData = "no_data"

    /// The chance (Bayesian) a verdict needs: better at ≥ 95 %, worse at ≤ 5 %, a guardrail fails at ≥ 95 % chance of being worse.
    public static let confidence = 0.95

    /// The goal's (or another metric's) verdict. `chanceToWin` is already the chance of being better
    /// (of being lower, for a metric where lower is better); under the frequentist engine the
    /// two-sided p-value below α decides, the lift's sign (flipped when lower is better) says which way.
    public static func effect(lift: Double?, chanceToWin: Double?, pValue: Double?, lowerIsBetter: Bool) -> MetricVerdict {
        if let chanceToWin {
            return chanceToWin >= confidence ? .better : chanceToWin <= 1 - confidence ? .worse : .inconclusive
        }
        guard let pValue, let lift, pValue < Comparison.alpha, lift != 0 else { return .inconclusive }
        return (lift > 0) != lowerIsBetter ? .better : .worse
    }

    /// A guardrail's verdict: fails when the chance of being worse is ≥ 95 % (frequentist: the one-sided
    /// p-value in the harmful direction, half the two-sided one, below α); else ok, also without an estimate.
    public static func guardrail(lift: Double?, chanceToWin: Double?, pValue: Double?, lowerIsBetter: Bool) -> MetricVerdict {
        if let chanceToWin { return 1 - chanceToWin >= confidence ? .fails : .ok }
        guard let pValue, let lift, lift != 0 else { return .ok }
        let harmful = (lift < 0) != lowerIsBetter
        return harmful && pValue / 2 < Comparison.alpha ? .fails : .ok
    }
}
