import Testing
@testable import ExperimentStats

/// Lift, the three engines and every "no estimate" rule of SPEC §8.
struct ComparisonTests {
    static let engines: [StatsEngine] = [.bayesian, .frequentist(sequential: false), .frequentist(sequential: true)]

    static func mean(_ n: Int, _ sum: Double, _ sumSquares: Double) throws -> GroupStatistics {
        try GroupStatistics(subjects: n, sum: sum, sumSquares: sumSquares)
    }

    static func close(_ value: Double?, _ expected: Double, _ tolerance: Double = 1e-12) -> Bool {
        guard let value else { return false }
        return abs(value - expected) <= tolerance * max(1, abs(expected))
    }

    // MARK: Engines (expected values printed by gbstats 0.8.0 for the same input)

    @Test func sequentialMatchesGbstatsAndIsWiderThanTheFixedHorizonInterval() throws {
        let control = try Self.mean(100, 270, 848.79)
        let treatment = try Self.mean(120, 300, 869)
        let sequential = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .frequentist(sequential: true))
        let fixed = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .frequentist(sequential: false))
        #expect(Self.close(sequential.lift, -0.07407407407407414))
        #expect(Self.close(sequential.interval?.lower, -0.3238231747772922, 1e-10))
        #expect(Self.close(sequential.interval?.upper, 0.17567502662914392, 1e-10))
        #expect(Self.close(sequential.pValue, 0.8807782177228484, 1e-10))
        #expect(Self.close(fixed.interval?.lower, -0.17395718516868802, 1e-10))
        #expect(Self.close(fixed.interval?.upper, 0.025809037020539743, 1e-10))
        #expect(Self.close(sequential.standardError, 0.050657045137700016, 1e-12))
        #expect(try #require(sequential.pValue) > #require(fixed.pValue))
    }

    @Test func sequentialPValueIsCappedAtOne() throws {
        let result = Comparison.compare(
            control: try .proportion(subjects: 3000, conversions: 300),
            treatment: try .proportion(subjects: 3100, conversions: 350),
            kind: .proportion, engine: .frequentist(sequential: true)
        )
        #expect(result.pValue == 1)
        #expect(Self.close(result.interval?.lower, -0.1260589846117847, 1e-10))
        #expect(Self.close(result.interval?.upper, 0.3841235007408168, 1e-10))
    }

    @Test func bayesianChanceToWinIsTheNormalCDFOfLiftOverItsStandardError() throws {
        let result = Comparison.compare(control: try .proportion(subjects: 1000, conversions: 100),
                                        treatment: try .proportion(subjects: 1000, conversions: 120),
                                        kind: .proportion, engine: .bayesian)
        let lift = try #require(result.lift)
        let se = try #require(result.standardError)
        #expect(Self.close(lift, 0.2))
        #expect(result.chanceToWin == Distributions.normalCDF(lift / se))
        #expect(result.pValue == nil)
        let interval = try #require(result.interval)
        #expect(Self.close(interval.upper - lift, lift - interval.lower))
        #expect(Self.close((interval.upper - lift) / se, 1.959963984540054))
    }

    @Test func aHugeEffectGivesATinyPValueNotZero() throws {
        let result = Comparison.compare(control: try .proportion(subjects: 1_000_000, conversions: 100_000),
                                        treatment: try .proportion(subjects: 1_000_000, conversions: 110_000),
                                        kind: .proportion, engine: .frequentist(sequential: false))
        let p = try #require(result.pValue)
        // t ≈ 22 on about 2e6 degrees of freedom: p ≈ 2·(1 − Φ(22)) ≈ 1e-107, far below 1 − cdf's reach.
        #expect(p > 0 && p < 1e-100)
    }

    // MARK: Lift over |μC| (SPEC §8; gbstats divides by the signed mean)

    @Test func aNegativeControlMeanDividesByItsMagnitude() throws {
        // gbstats 0.8.0 on the same numbers: lift -0.25, ci [-0.5423478…, 0.0423478…], chance 0.0468637…
        let control = try Self.mean(50, -500, 9000)
        let treatment = try Self.mean(60, -450, 8000)
        let bayesian = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .bayesian)
        #expect(Self.close(bayesian.lift, 0.25))
        #expect(Self.close(bayesian.interval?.lower, -0.04234783124206182, 1e-10))
        #expect(Self.close(bayesian.interval?.upper, 0.542347831242062, 1e-10))
        #expect(Self.close(bayesian.chanceToWin, 1 - 0.04686372612681996, 1e-10))
        let frequentist = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .frequentist(sequential: false))
        #expect(Self.close(frequentist.pValue, 0.09674095042194386, 1e-10))
    }

    // MARK: No estimate

    @Test(arguments: engines) func fewerThanTwoSubjectsGivesNoEstimate(engine: StatsEngine) throws {
        let good = try Self.mean(10, 50, 300)
        for (control, treatment) in [(try Self.mean(1, 5, 25), good), (good, try Self.mean(0, 0, 0)), (try Self.mean(0, 0, 0), try Self.mean(1, 3, 9))] {
            let result = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: engine)
            Self.expectNoEstimate(result)
            #expect(result.reason == .tooFewSubjects(controlSubjects: control.subjects, treatmentSubjects: treatment.subjects))
        }
        let one = Comparison.compare(control: try .proportion(subjects: 1, conversions: 1), treatment: try .proportion(subjects: 5, conversions: 2),
                                     kind: .proportion, engine: engine)
        #expect(one.note == "the control has fewer than 2 subjects (control 1, treatment 5); no estimate yet")
    }

    @Test(arguments: engines) func aZeroControlMeanGivesNoEstimate(engine: StatsEngine) throws {
        let proportion = Comparison.compare(control: try .proportion(subjects: 500, conversions: 0),
                                            treatment: try .proportion(subjects: 500, conversions: 10), kind: .proportion, engine: engine)
        Self.expectNoEstimate(proportion)
        #expect(proportion.reason == .controlMeanZero)
        #expect(proportion.note == "the control's mean is 0, so a relative lift is undefined")
        let mean = Comparison.compare(control: try Self.mean(4, 0, 8), treatment: try Self.mean(4, 4, 10), kind: .mean, engine: engine)
        #expect(mean.reason == .controlMeanZero)
    }

    @Test(arguments: engines) func noVarianceGivesNoEstimate(engine: StatsEngine) throws {
        // Every treatment subject converted: p(1−p) = 0 (gbstats: ZERO_NEGATIVE_VARIANCE).
        let allConverted = Comparison.compare(control: try .proportion(subjects: 100, conversions: 40),
                                              treatment: try .proportion(subjects: 100, conversions: 100), kind: .proportion, engine: engine)
        Self.expectNoEstimate(allConverted)
        #expect(allConverted.reason == .noVariance(control: false, treatment: true))
        #expect(allConverted.note == "the treatment's values do not vary (variance 0: every subject has the same value, e.g. none or all converted), so no interval can be computed")
        // None of the treatment converted: the lift would be −100 % but its variance is 0; gbstats gives no estimate either.
        let noneConverted = Comparison.compare(control: try .proportion(subjects: 100, conversions: 40),
                                               treatment: try .proportion(subjects: 100, conversions: 0), kind: .proportion, engine: engine)
        #expect(noneConverted.reason == .noVariance(control: false, treatment: true))
        // Every subject of both variants has the value 3.
        let constant = Comparison.compare(control: try Self.mean(5, 15, 45), treatment: try Self.mean(7, 21, 63), kind: .mean, engine: engine)
        #expect(constant.reason == .noVariance(control: true, treatment: true))
        #expect(constant.note?.hasPrefix("neither variant's values vary") == true)
        // A sum of squares below sum²/n has no sample: refused where the statistics are made, naming the sum of squares.
        #expect(throws: StatisticsError("sum of squares 10.0 is less than sum²/subjects = 45.0; no values have these sums", field: .sumSquares)) {
            try Self.mean(5, 15, 10)
        }
    }

    @Test func aProportionAboveOneHasNoSample() throws {
        // 12 of 10 converted: the sums themselves are impossible (Σx² ≥ (Σx)²/n fails), whatever the kind.
        #expect(throws: StatisticsError.self) { try GroupStatistics(subjects: 10, sum: 12, sumSquares: 12) }
        #expect(throws: StatisticsError.self) { try GroupStatistics.proportion(subjects: 10, sum: 10.5, sumSquares: 10.5) }
        #expect(throws: StatisticsError.self) { try GroupStatistics.proportion(subjects: 10, sum: 5, sumSquares: 7) }
    }

    @Test func sumsThatCannotCarryTheSpreadAreRefused() throws {
        // Values 1e13 + 0…19 × 1000: Σx² and (Σx)²/n agree to 18 digits, so their difference is rounding.
        let values = (0..<20).map { 1e13 + Double($0) * 1000 }
        let sum = values.reduce(0, +), squares = values.reduce(0) { $0 + $1 * $1 }
        #expect(throws: StatisticsError.self) { try GroupStatistics.mean(subjects: 20, sum: sum, sumSquares: squares) }
        let mean = sum / 20
        let deviations = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let exact = try GroupStatistics(subjects: 20, sum: sum, sumSquares: squares, squaredDeviations: deviations)
        #expect(exact.variance(kind: .mean) == deviations / 19)
        #expect(try GroupStatistics.mean(subjects: 5, sum: 15, sumSquares: 45).variance(kind: .mean) == 0)
    }

    @Test func extremeNumbersGiveNoEstimateRatherThanInfinity() throws {
        let control = try Self.mean(10, 1e-300, 1e-300)
        let treatment = try Self.mean(10, 5, 30)
        let result = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .bayesian)
        #expect(result.reason == .notFinite)
        Self.expectNoEstimate(result)
    }

    static func expectNoEstimate(_ result: VariantComparison, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.lift == nil, sourceLocation: sourceLocation)
        #expect(result.interval == nil, sourceLocation: sourceLocation)
        #expect(result.chanceToWin == nil, sourceLocation: sourceLocation)
        #expect(result.pValue == nil, sourceLocation: sourceLocation)
        #expect(result.standardError == nil, sourceLocation: sourceLocation)
        #expect(result.note != nil && result.note == result.reason?.description, sourceLocation: sourceLocation)
    }
}
