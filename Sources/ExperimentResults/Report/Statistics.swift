import ExperimentStats

/// The verdict of a variant on a metric with a role (SPEC §12), from the statistics module.
public typealias MetricVerdict = ExperimentStats.MetricVerdict

/// The one door to the statistics module (ExperimentStats): everything numeric comes from there.
enum Statistics {
    /// The comparison of a treatment against the control, as plain numbers.
    struct Estimate: Equatable, Sendable {
        var lift: Double?
        var interval: (lower: Double, upper: Double)?
        var chanceToWin: Double?
        var pValue: Double?
        var note: String?

        static func == (lhs: Estimate, rhs: Estimate) -> Bool {
            lhs.lift == rhs.lift && lhs.interval?.lower == rhs.interval?.lower && lhs.interval?.upper == rhs.interval?.upper
                && lhs.chanceToWin == rhs.chanceToWin && lhs.pValue == rhs.pValue && lhs.note == rhs.note
        }
    }

    static func compare(control: VariantTotals, treatment: VariantTotals, type: MetricType, engine: ResultsEngine) -> Estimate {
        let kind: MetricKind = type == .mean ? .mean : .proportion
        let statsEngine: StatsEngine = switch engine {
        case .bayesian: .bayesian
        case .frequentist(let sequential): .frequentist(sequential: sequential)
        }
        let c: GroupStatistics, t: GroupStatistics
        do {
            c = try group(control, "control")
            t = try group(treatment, "treatment")
        } catch {
            return Estimate(note: error.message)
        }
        let result: VariantComparison
        if let x = control.covariate, let y = treatment.covariate,
           let cx = try? GroupStatistics(subjects: control.subjects, sum: x.sum, sumSquares: x.sumSquares),
           let tx = try? GroupStatistics(subjects: treatment.subjects, sum: y.sum, sumSquares: y.sumSquares),
           let adjustedC = try? CovariateGroup(outcome: c, covariate: cx, crossSum: x.crossSum),
           let adjustedT = try? CovariateGroup(outcome: t, covariate: tx, crossSum: y.crossSum) {
            result = Comparison.compareAdjusted(control: adjustedC, treatment: adjustedT, kind: kind, engine: statsEngine)
        } else {
            result = Comparison.compare(control: c, treatment: t, kind: kind, engine: statsEngine)
        }
        return Estimate(lift: result.lift, interval: result.interval.map { ($0.lower, $0.upper) },
                        chanceToWin: result.chanceToWin, pValue: result.pValue, note: result.note)
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
              let mean = group.mean(), let variance = group.variance(kind: type == .mean ? .mean : .proportion) else { return nil }
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
