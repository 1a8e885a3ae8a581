/// One variant against the control for one metric: relative lift and what the engine says of it.
///
/// When there is no estimate, `lift`, `interval`, `chanceToWin` and `pValue` are all nil and
/// `note`/`reason` say why.
public struct VariantComparison: Equatable, Sendable {
    /// Relative lift `(μT − μC)/|μC|`: 0.05 means the treatment's mean is 5 % above the control's.
    public let lift: Double?
    /// The 95 % interval of the lift (credible under the Bayesian engine, confidence otherwise).
    public let interval: Interval?
    /// Bayesian only: the posterior probability that the treatment's true mean beats the control's.
    public private(set) var chanceToWin: Double?
    /// Frequentist only: the two-sided p-value of "no difference" (sequential: always-valid).
    public let pValue: Double?
    /// Why there is no estimate, as a value; nil when there is one.
    public let reason: NoEstimateReason?
    /// The standard error of the lift, `√Var(Δ)` (delta method); nil when there is no estimate.
    public let standardError: Double?

    /// A comparison with an estimate.
    public init(lift: Double, interval: Interval, chanceToWin: Double?, pValue: Double?, standardError: Double) {
        self.lift = lift
        self.interval = interval
        self.chanceToWin = chanceToWin
        self.pValue = pValue
        self.standardError = standardError
        self.reason = nil
    }

    /// A comparison without an estimate, and why.
    public init(noEstimate reason: NoEstimateReason) {
        self.lift = nil
        self.interval = nil
        self.chanceToWin = nil
        self.pValue = nil
        self.standardError = nil
        self.reason = reason
    }

    /// Why there is no estimate, in plain words; nil when there is one.
    public var note: String? { reason?.description }

    /// The same comparison with `chanceToWin` as the chance of being lower when `lowerIsBetter`
    /// (the chance of moving the better way).
    public func favouring(lowerIsBetter: Bool) -> VariantComparison {
        guard lowerIsBetter, let chanceToWin else { return self }
        var flipped = self
        flipped.chanceToWin = 1 - chanceToWin
        return flipped
    }
}
