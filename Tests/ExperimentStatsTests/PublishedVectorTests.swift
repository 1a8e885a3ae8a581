import Testing
@testable import ExperimentStats

/// SPEC §8's published vectors (GrowthBook's own tests), each to its printed digits.
struct PublishedVectorTests {
    /// `value` rounds to `printed` at `places` decimals (|value − printed| ≤ half a unit in the last place).
    static func matches(_ value: Double?, _ printed: Double, places: Int) -> Bool {
        guard let value else { return false }
        var unit = 1.0
        for _ in 0..<places { unit /= 10 }
        return abs(value - printed) <= unit / 2 * (1 + 1e-9)
    }

    @Test func proportionBayesian() throws {
        let result = Comparison.compare(
            control: try .proportion(subjects: 100, conversions: 49),
            treatment: try .proportion(subjects: 100, conversions: 51),
            kind: .proportion, engine: .bayesian
        )
        #expect(Self.matches(result.lift, 0.04082, places: 5))
        #expect(Self.matches(result.interval?.lower, -0.24779, places: 5))
        #expect(Self.matches(result.interval?.upper, 0.32943, places: 5))
        #expect(Self.matches(result.chanceToWin, 0.60918, places: 5))
        #expect(result.pValue == nil)
        #expect(result.note == nil)
    }

    @Test func proportionFrequentist() throws {
        let result = Comparison.compare(
            control: try .proportion(subjects: 28, conversions: 14),
            treatment: try .proportion(subjects: 30, conversions: 16),
            kind: .proportion, engine: .frequentist(sequential: false)
        )
        #expect(Self.matches(result.lift, 0.06667, places: 5))
        #expect(Self.matches(result.interval?.lower, -0.47767, places: 5))
        #expect(Self.matches(result.interval?.upper, 0.61101, places: 5))
        #expect(Self.matches(result.pValue, 0.80707, places: 5))
        #expect(result.chanceToWin == nil)
    }

    @Test func meanBothEngines() throws {
        let control = try GroupStatistics(subjects: 100, sum: 270, sumSquares: 848.79)
        let treatment = try GroupStatistics(subjects: 120, sum: 300, sumSquares: 869)
        let bayesian = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .bayesian)
        #expect(Self.matches(bayesian.lift, -0.074074074, places: 9))
        #expect(Self.matches(bayesian.chanceToWin, 0.071834168, places: 9))
        let frequentist = Comparison.compare(control: control, treatment: treatment, kind: .mean, engine: .frequentist(sequential: false))
        #expect(Self.matches(frequentist.lift, -0.074074074, places: 9))
        #expect(Self.matches(frequentist.pValue, 0.145219005, places: 9))
    }

    @Test func sampleRatioVectors() throws {
        let twoWay = try #require(SampleRatio.check(observed: [1000, 1200], expectedShares: [0.5, 0.5]))
        #expect(Self.matches(twoWay.pValue, 0.000020079, places: 9))
        #expect(twoWay.isMismatch)
        #expect(twoWay.degreesOfFreedom == 1)
        let skewed = try #require(SampleRatio.check(observed: [310, 98], expectedShares: [75, 25]))
        #expect(Self.matches(skewed.pValue, 0.647434186, places: 9))
        #expect(!skewed.isMismatch)
        let threeWay = try #require(SampleRatio.check(observed: [500, 500, 600], expectedShares: [34, 33, 33]))
        #expect(Self.matches(threeWay.pValue, 0.000592638, places: 9))
        #expect(threeWay.degreesOfFreedom == 2)
    }
}
