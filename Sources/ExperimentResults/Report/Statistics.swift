import ExperimentStats

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
        let result = Comparison.compare(control: c, treatment: t, kind: kind, engine: statsEngine)
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
}
