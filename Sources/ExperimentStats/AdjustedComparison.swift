import Foundation

/// CUPED (SPEC §12): the comparison of §8 on regression-adjusted means, as gbstats 0.8's
/// `RegressionAdjustedStatistic` does it.
///
/// Each subject has a covariate X (the same metric before its first exposure) beside its value Y.
/// θ = pooled cov(Y, X) / var(X) over control and treatment (0 when either pooled variance is 0,
/// and then the plain comparison is used); a group's adjusted mean is Ȳ − θX̄ and its variance
/// σ²Y + θ²σ²X − 2θσXY. The lift is over the unadjusted control mean, and the delta-method
/// variance uses the unadjusted means, as gbstats does.
public struct CovariateGroup: Equatable, Sendable {
    /// The metric's own statistics (Y).
    public let outcome: GroupStatistics
    /// Σ X and Σ X² over the same subjects.
    public let covariate: GroupStatistics
    /// Σ X·Y over the same subjects.
    public let crossSum: Double

    public init(outcome: GroupStatistics, covariate: GroupStatistics, crossSum: Double) throws(StatisticsError) {
        guard covariate.subjects == outcome.subjects else {
            throw StatisticsError("the covariate covers \(covariate.subjects) subjects, the metric \(outcome.subjects)")
        }
        guard crossSum.isFinite else { throw StatisticsError("the cross sum (\(crossSum)) must be a finite number", field: .crossSum) }
        // Cauchy–Schwarz: |Sxy| ≤ √(Sxx·Syy) for any values; past it (beyond rounding) no sample has these sums.
        if outcome.subjects > 0 {
            let n = Double(outcome.subjects)
            let sxy = crossSum - covariate.sum * outcome.sum / n
            let sxx = max(0, covariate.sumSquares - covariate.sum * covariate.sum / n)
            let syy = max(0, outcome.sumSquares - outcome.sum * outcome.sum / n)
            let bound = (sxx * syy).squareRoot()
            let rounding = GroupStatistics.roundingTolerance * (abs(crossSum) + abs(covariate.sum * outcome.sum / n)
                                                                + (covariate.sumSquares * outcome.sumSquares).squareRoot())
            guard abs(sxy) <= bound + rounding else {
                throw StatisticsError("the cross sum \(crossSum) is impossible with these sums: |Σxy − ΣxΣy/n| = \(abs(sxy)) exceeds √(Sxx·Syy) = \(bound) (Cauchy–Schwarz)",
                                      field: .crossSum)
            }
        }
        self.outcome = outcome
        self.covariate = covariate
        self.crossSum = crossSum
    }

    /// The sample covariance of Y and X, `(Σxy − ΣyΣx/n)/(n−1)`; 0 with fewer than 2 subjects.
    func covariance() -> Double {
        guard outcome.subjects > 1 else { return 0 }
        let n = Double(outcome.subjects)
        return (crossSum - outcome.sum * covariate.sum / n) / (n - 1)
    }
}

/// CUPED's adjusted means of one comparison: θ, and each group's Ȳ − θX̄ (the lift is their difference
/// over the control's unadjusted mean).
public struct AdjustedMeans: Equatable, Sendable {
    public let theta: Double
    public let control: Double
    public let treatment: Double
}

extension Comparison {
    /// The adjusted means of `control` and `treatment` at their θ; nil when a group has no subjects.
    public static func adjustedMeans(control: CovariateGroup, treatment: CovariateGroup, kind: MetricKind) -> AdjustedMeans? {
        guard let meanC = control.outcome.mean(), let meanT = treatment.outcome.mean(),
              let preC = control.covariate.mean(), let preT = treatment.covariate.mean() else { return nil }
        let theta = theta(control: control, treatment: treatment, kind: kind)
        return AdjustedMeans(theta: theta, control: meanC - theta * preC, treatment: meanT - theta * preT)
    }

    /// θ of two groups: their pooled covariance over the pooled covariate variance; 0 when a pooled variance is 0 or below.
    public static func theta(control: CovariateGroup, treatment: CovariateGroup, kind: MetricKind) -> Double {
        let n = control.outcome.subjects + treatment.outcome.subjects
        guard let y = try? GroupStatistics(subjects: n, sum: control.outcome.sum + treatment.outcome.sum,
                                           sumSquares: control.outcome.sumSquares + treatment.outcome.sumSquares),
              let x = try? GroupStatistics(subjects: n, sum: control.covariate.sum + treatment.covariate.sum,
                                           sumSquares: control.covariate.sumSquares + treatment.covariate.sumSquares),
              let joint = try? CovariateGroup(outcome: y, covariate: x, crossSum: control.crossSum + treatment.crossSum),
              let varianceX = x.variance(kind: kind), let varianceY = y.variance(kind: kind),
              varianceX != 0, varianceY != 0 else { return 0 }
        return joint.covariance() / varianceX
    }

    /// The treatment against the control on CUPED-adjusted means under `engine` (the plain comparison when θ = 0).
    public static func compareAdjusted(control: CovariateGroup, treatment: CovariateGroup, kind: MetricKind, engine: StatsEngine) -> VariantComparison {
        let theta = theta(control: control, treatment: treatment, kind: kind)
        guard theta != 0 else { return compare(control: control.outcome, treatment: treatment.outcome, kind: kind, engine: engine) }
        switch AdjustedEstimate.make(control: control, treatment: treatment, kind: kind, theta: theta) {
        case .noEstimate(let reason): return VariantComparison(noEstimate: reason)
        case .estimate(let estimate):
            switch engine {
            case .bayesian: return bayesian(estimate)
            case .frequentist(sequential: false): return welch(estimate)
            case .frequentist(sequential: true): return sequential(estimate)
            }
        }
    }
}

/// The adjusted lift and its variance, in the shape of `LiftEstimate` so the engines apply unchanged.
enum AdjustedEstimate {
    static func make(control: CovariateGroup, treatment: CovariateGroup, kind: MetricKind, theta: Double) -> LiftEstimate.Outcome {
        let c = control.outcome, t = treatment.outcome
        guard c.subjects >= 2, t.subjects >= 2,
              let meanC = c.mean(), let meanT = t.mean(), let preC = control.covariate.mean(), let preT = treatment.covariate.mean(),
              let varYC = c.variance(kind: kind), let varYT = t.variance(kind: kind),
              let varXC = control.covariate.variance(kind: kind), let varXT = treatment.covariate.variance(kind: kind) else {
            return .noEstimate(.tooFewSubjects(controlSubjects: c.subjects, treatmentSubjects: t.subjects))
        }
        let adjustedC = meanC - theta * preC, adjustedT = meanT - theta * preT
        guard meanC != 0, adjustedC != 0 else { return .noEstimate(.controlMeanZero) }
        let varC = varYC + theta * theta * varXC - 2 * theta * control.covariance()
        let varT = varYT + theta * theta * varXT - 2 * theta * treatment.covariance()
        guard varC > 0, varT > 0 else { return .noEstimate(.noVariance(control: !(varC > 0), treatment: !(varT > 0))) }
        let nC = Double(c.subjects), nT = Double(t.subjects)
        let lift = (adjustedT - adjustedC) / abs(meanC)
        let meanC2 = meanC * meanC
        let variance = varT / (nT * meanC2) + varC * meanT * meanT / (nC * meanC2 * meanC2)
        let dfNumerator = varT / nT + varC / nC
        let df = dfNumerator * dfNumerator / (varT * varT / (nT * nT * (nT - 1)) + varC * varC / (nC * nC * (nC - 1)))
        guard lift.isFinite, variance.isFinite, variance > 0, df.isFinite, df > 0 else { return .noEstimate(.notFinite) }
        return .estimate(LiftEstimate(lift: lift, variance: variance, degreesOfFreedom: df,
                                      controlSubjects: c.subjects, treatmentSubjects: t.subjects))
    }
}
