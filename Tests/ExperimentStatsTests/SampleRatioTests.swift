import Testing
@testable import ExperimentStats

/// The sample-ratio χ² check beyond SPEC's vectors: shares, zero shares and unusable input.
struct SampleRatioTests {
    @Test func aPerfectSplitHasChiSquareZeroAndPValueOne() throws {
        let result = try #require(SampleRatio.check(observed: [500, 300, 200], expectedShares: [0.5, 0.3, 0.2]))
        #expect(result.chiSquare == 0)
        #expect(result.pValue == 1)
        #expect(result.degreesOfFreedom == 2)
    }

    @Test func sharesAreNormalised() throws {
        let fractions = try #require(SampleRatio.check(observed: [1000, 1200], expectedShares: [0.5, 0.5]))
        let buckets = try #require(SampleRatio.check(observed: [1000, 1200], expectedShares: [5000, 5000]))
        #expect(fractions == buckets)
        // (1000 − 1100)²/1100 · 2
        #expect(abs(fractions.chiSquare - 20000.0 / 1100) < 1e-12)
    }

    @Test func aZeroShareWithoutSubjectsIsLeftOut() throws {
        let withZero = try #require(SampleRatio.check(observed: [310, 0, 98], expectedShares: [75, 0, 25]))
        let without = try #require(SampleRatio.check(observed: [310, 98], expectedShares: [75, 25]))
        #expect(withZero == without)
        #expect(withZero.degreesOfFreedom == 1)
    }

    @Test func subjectsInAZeroShareAreACertainMismatch() throws {
        let result = try #require(SampleRatio.check(observed: [310, 4, 98], expectedShares: [75, 0, 25]))
        #expect(result.chiSquare == .infinity)
        #expect(result.pValue == 0)
        #expect(result.degreesOfFreedom == 1)
    }

    @Test func unusableInputGivesNil() {
        #expect(SampleRatio.check(observed: [], expectedShares: []) == nil)
        #expect(SampleRatio.check(observed: [10], expectedShares: [1]) == nil)
        #expect(SampleRatio.check(observed: [0, 0], expectedShares: [0.5, 0.5]) == nil)
        #expect(SampleRatio.check(observed: [10, 10], expectedShares: [0.5]) == nil)
        #expect(SampleRatio.check(observed: [10, -1], expectedShares: [0.5, 0.5]) == nil)
        #expect(SampleRatio.check(observed: [10, 10], expectedShares: [0.5, -0.5]) == nil)
        #expect(SampleRatio.check(observed: [10, 10], expectedShares: [0.5, .nan]) == nil)
        #expect(SampleRatio.check(observed: [10, 10], expectedShares: [1, 0]) == nil)
    }

    @Test func aHugeMismatchHasATinyButPositivePValue() throws {
        let result = try #require(SampleRatio.check(observed: [100_000, 90_000], expectedShares: [1, 1]))
        // χ² = 526.3…, 1 df: P = erfc(√(χ²/2)) ≈ 1.5e-116 (well inside the doubles).
        #expect(result.pValue > 0 && result.pValue < 1e-100)
        #expect(abs(result.pValue / Distributions.normalSurvival(result.chiSquare.squareRoot()) / 2 - 1) < 1e-9)
    }
}
