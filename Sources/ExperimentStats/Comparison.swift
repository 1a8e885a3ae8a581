import Foundation

/// Each variant against the control, as GrowthBook's `gbstats` 0.8 does it by default (SPEC §8).
public enum Comparison {
    /// Two-sided significance level; the intervals are 1 − α = 95 %.
    public static let alpha = 0.05
    /// GrowthBook's default tuning parameter of the sequential confidence sequence.
    public static let sequentialTuning = 5000.0

    /// Relative lift of `treatment` over `control` with the chosen engine's interval and verdict.
    ///
    /// No estimate (and a note) when a group has fewer than 2 subjects, the control's mean is 0 or
    /// a variance is 0 or below.
    public static func compare(
        control: GroupStatistics, treatment: GroupStatistics, kind: MetricKind, engine: StatsEngine
    ) -> VariantComparison {
        switch LiftEstimate.make(control: control, treatment: treatment, kind: kind) {
        case .noEstimate(let reason):
            return VariantComparison(noEstimate: reason)
        case .estimate(let estimate):
            switch engine {
            case .bayesian:
                return bayesian(estimate)
            case .frequentist(sequential: false):
                return welch(estimate)
            case .frequentist(sequential: true):
                return sequential(estimate)
            }
        }
    }

    /// Flat prior: the posterior of the lift is normal around Δ with the delta-method variance.
    static func bayesian(_ e: LiftEstimate) -> VariantComparison {
        let z = Distributions.normalQuantile(1 - alpha / 2)
        let width = z * e.standardError
        return VariantComparison(
            lift: e.lift,
            interval: Interval(lower: e.lift - width, upper: e.lift + width),
            chanceToWin: Distributions.normalCDF(e.lift / e.standardError),
            pValue: nil,
            standardError: e.standardError
        )
    }

    /// Welch t-test with the Welch–Satterthwaite degrees of freedom.
    static func welch(_ e: LiftEstimate) -> VariantComparison {
        let t = e.lift / e.standardError
        let p = min(1, 2 * Distributions.studentTSurvival(abs(t), df: e.degreesOfFreedom))
        let width = Distributions.studentTQuantile(1 - alpha / 2, df: e.degreesOfFreedom) * e.standardError
        return VariantComparison(
            lift: e.lift,
            interval: Interval(lower: e.lift - width, upper: e.lift + width),
            chanceToWin: nil,
            pValue: p,
            standardError: e.standardError
        )
    }

    /// GrowthBook's always-valid confidence sequence (Waudby-Smith et al. 2023, eq. 9, 155, 161).
    static func sequential(_ e: LiftEstimate) -> VariantComparison {
        let n = Double(e.controlSubjects) + Double(e.treatmentSubjects)
        let rhoSquared = (-2 * log(alpha) + log(-2 * log(alpha) + 1)) / sequentialTuning
        let nRho2Plus1 = n * rhoSquared + 1
        let s2 = e.variance * n
        let width = s2.squareRoot() * (2 * nRho2Plus1 * log(nRho2Plus1.squareRoot() / alpha) / (n * n * rhoSquared)).squareRoot()
        // The e-value exp(ρ²·st²/(2(Nρ²+1)))/√(Nρ²+1), taken in logs so a large one cannot overflow.
        let st2 = e.lift * e.lift * n / e.variance
        let logEValue = rhoSquared * st2 / (2 * nRho2Plus1) - 0.5 * log(nRho2Plus1)
        let p = logEValue <= 0 ? 1 : exp(-logEValue)
        // Variance × subjects can leave the range of a number where the variance alone did not.
        guard width.isFinite, (e.lift - width).isFinite, (e.lift + width).isFinite, p.isFinite else {
            return VariantComparison(noEstimate: .notFinite)
        }
        return VariantComparison(
            lift: e.lift,
            interval: Interval(lower: e.lift - width, upper: e.lift + width),
            chanceToWin: nil,
            pValue: p,
            standardError: e.standardError
        )
    }
}
