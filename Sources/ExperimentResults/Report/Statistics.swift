import ExperimentStats

/// The verdict of a variant on a metric with a role (SPEC §12), from the statistics module.
package typealias MetricVerdict = ExperimentStats.MetricVerdict
/// Which inference the report uses (Bayesian or frequentist), from the statistics module.
package typealias StatsEngine = ExperimentStats.StatsEngine
/// How a metric's values are read (proportion or mean), from the statistics module.
package typealias MetricType = ExperimentStats.MetricKind
/// A variant's comparison with the control (lift, interval, chance to win or p-value), from the statistics module.
package typealias VariantComparison = ExperimentStats.VariantComparison
/// A 95 % interval of relative lift, from the statistics module.
package typealias Interval = ExperimentStats.Interval
/// A correction of p-values for multiple comparisons (Holm, Benjamini–Hochberg), from the statistics module.
package typealias PValueCorrection = ExperimentStats.PValueCorrection
/// CUPED's θ and adjusted means of one comparison, from the statistics module.
package typealias AdjustedMeans = ExperimentStats.AdjustedMeans
/// A variant's sufficient statistics for one metric (subjects, sums), checked when made, from the statistics module.
package typealias GroupStatistics = ExperimentStats.GroupStatistics

/// The one door to the statistics module (ExperimentStats): everything numeric comes from there.
enum Statistics {
    /// The comparison of a treatment against the control (CUPED-adjusted when both carry covariates).
    static func compare(control: VariantTotals, treatment: VariantTotals, type: MetricType, engine: StatsEngine) -> VariantComparison {
        if let groups = covariateGroups(control, treatment) {
            return Comparison.compareAdjusted(control: groups.control, treatment: groups.treatment, kind: type, engine: engine)
        }
        return Comparison.compare(control: control.statistics, treatment: treatment.statistics, kind: type, engine: engine)
    }

    /// With CUPED: θ and the two adjusted means (Ȳ − θX̄) the lift is made of; nil without covariates.
    static func adjustedMeans(control: VariantTotals, treatment: VariantTotals, type: MetricType) -> AdjustedMeans? {
        covariateGroups(control, treatment).flatMap { Comparison.adjustedMeans(control: $0.control, treatment: $0.treatment, kind: type) }
    }

    /// Both variants' outcomes with their covariates, when both carry covariate sums that can describe a sample.
    private static func covariateGroups(_ control: VariantTotals, _ treatment: VariantTotals) -> (control: CovariateGroup, treatment: CovariateGroup)? {
        guard let c = control.covariate, let t = treatment.covariate,
              let groupC = try? CovariateTotals.group(c, outcome: control.statistics),
              let groupT = try? CovariateTotals.group(t, outcome: treatment.statistics) else { return nil }
        return (groupC, groupT)
    }

    static func sampleRatioPValue(observed: [Int], expectedShares: [Double]) -> Double? {
        SampleRatio.check(observed: observed, expectedShares: expectedShares)?.pValue
    }

    // MARK: - Deciding (SPEC §12)

    /// A goal's (or other metric's) verdict, or a guardrail's.
    static func verdict(guardrail: Bool, lift: Double?, chanceToWin: Double?, pValue: Double?, lowerIsBetter: Bool) -> MetricVerdict {
        guardrail
            ? MetricVerdict.guardrail(lift: lift, chanceToWin: chanceToWin, pValue: pValue, lowerIsBetter: lowerIsBetter)
            : MetricVerdict.effect(lift: lift, chanceToWin: chanceToWin, pValue: pValue, lowerIsBetter: lowerIsBetter)
    }

    /// A variant's mean and per-subject variance (§8), or nil when the totals give none.
    static func meanAndVariance(_ totals: VariantTotals, type: MetricType) -> (mean: Double, variance: Double)? {
        guard let mean = totals.statistics.mean(), let variance = totals.statistics.variance(kind: type) else { return nil }
        return (mean, variance)
    }

    /// How far ahead `daysRemaining` looks.
    static var horizonDays: Int { Power.horizonDays }

    static func power(mde: Double, controlMean: Double, controlVariance: Double, treatmentVariance: Double,
                      controlSubjects: Double, treatmentSubjects: Double) -> Double? {
        Power.power(mde: mde, controlMean: controlMean, controlVariance: controlVariance, treatmentVariance: treatmentVariance,
                    controlSubjects: controlSubjects, treatmentSubjects: treatmentSubjects)
    }

    static func daysRemaining(target: Double, mde: Double, controlMean: Double, controlVariance: Double, treatmentVariance: Double,
                              controlSubjects: Double, treatmentSubjects: Double, controlPerDay: Double, treatmentPerDay: Double) -> Int? {
        Power.daysRemaining(target: target, mde: mde, controlMean: controlMean, controlVariance: controlVariance,
                            treatmentVariance: treatmentVariance, controlSubjects: controlSubjects, treatmentSubjects: treatmentSubjects,
                            controlPerDay: controlPerDay, treatmentPerDay: treatmentPerDay)
    }

    static func subjectsPerVariant(baseline: Double, mde: Double, target: Double) -> Int? {
        Power.subjectsPerVariant(baseline: baseline, mde: mde, target: target)
    }
}
