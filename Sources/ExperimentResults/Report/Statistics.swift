import ExperimentStats

/// The verdict of a variant on a metric with a role (SPEC §12), from the statistics module.
public typealias MetricVerdict = ExperimentStats.MetricVerdict
/// Which inference the report uses (Bayesian or frequentist), from the statistics module.
public typealias StatsEngine = ExperimentStats.StatsEngine
/// How a metric's values are read (proportion or mean), from the statistics module.
public typealias MetricType = ExperimentStats.MetricKind
/// A variant's comparison with the control (lift, interval, chance to win or p-value), from the statistics module.
public typealias VariantComparison = ExperimentStats.VariantComparison
/// A 95 % interval of relative lift, from the statistics module.
public typealias Interval = ExperimentStats.Interval

/// The one door to the statistics module (ExperimentStats): everything numeric comes from there.
enum Statistics {
    /// The comparison of a treatment against the control (CUPED-adjusted when both carry covariates).
    static func compare(control: VariantTotals, treatment: VariantTotals, type: MetricType, engine: StatsEngine) -> VariantComparison {
        let c: GroupStatistics, t: GroupStatistics
        do {
            c = try group(control, "control")
            t = try group(treatment, "treatment")
        } catch {
            return VariantComparison(noEstimate: .invalidInput(error.message))
        }
        if let x = control.covariate, let y = treatment.covariate,
           let cx = try? GroupStatistics(subjects: control.subjects, sum: x.sum, sumSquares: x.sumSquares),
           let tx = try? GroupStatistics(subjects: treatment.subjects, sum: y.sum, sumSquares: y.sumSquares),
           let adjustedC = try? CovariateGroup(outcome: c, covariate: cx, crossSum: x.crossSum),
           let adjustedT = try? CovariateGroup(outcome: t, covariate: tx, crossSum: y.crossSum) {
            return Comparison.compareAdjusted(control: adjustedC, treatment: adjustedT, kind: type, engine: engine)
        }
        return Comparison.compare(control: c, treatment: t, kind: type, engine: engine)
    }

    /// The statistics of one variant's totals, or why they describe no sample (said of `who`).
    private static func group(_ totals: VariantTotals, _ who: String) throws(StatisticsError) -> GroupStatistics {
        do {
            return try GroupStatistics(subjects: totals.subjects, sum: totals.sum, sumSquares: totals.sumSquares,
                                       squaredDeviations: totals.squaredDeviations)
        } catch {
            throw StatisticsError("the \(who)'s totals are not valid: \(error.message)", field: error.field)
        }
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
        guard let group = try? GroupStatistics(subjects: totals.subjects, sum: totals.sum, sumSquares: totals.sumSquares),
              let mean = group.mean(), let variance = group.variance(kind: type) else { return nil }
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
