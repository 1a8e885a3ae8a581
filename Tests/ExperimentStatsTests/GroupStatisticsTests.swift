import Testing
@testable import ExperimentStats

/// Validation, means and the two variances of SPEC §8.
struct GroupStatisticsTests {
    @Test func rejectsNumbersNoSampleHas() {
        #expect(throws: StatisticsError.self) { try GroupStatistics(subjects: -1, sum: 0, sumSquares: 0) }
        #expect(throws: StatisticsError.self) { try GroupStatistics(subjects: 3, sum: .nan, sumSquares: 1) }
        #expect(throws: StatisticsError.self) { try GroupStatistics(subjects: 3, sum: 1, sumSquares: .infinity) }
        #expect(throws: StatisticsError.self) { try GroupStatistics(subjects: 3, sum: 1, sumSquares: -0.5) }
        #expect(throws: StatisticsError.self) { try GroupStatistics(subjects: 0, sum: 2, sumSquares: 4) }
        #expect(throws: StatisticsError.self) { try GroupStatistics.proportion(subjects: 10, conversions: 11) }
        #expect(throws: StatisticsError.self) { try GroupStatistics.proportion(subjects: 10, conversions: -1) }
    }

    @Test func theMessageSaysWhatIsWrong() {
        #expect(throws: StatisticsError("sum of squares is -0.5; a sum of squares cannot be negative", field: .sumSquares)) {
            try GroupStatistics(subjects: 3, sum: 1, sumSquares: -0.5)
        }
    }

    @Test func acceptsNegativeSumsForMeans() throws {
        let refunds = try GroupStatistics(subjects: 4, sum: -20, sumSquares: 150)
        #expect(refunds.mean() == -5)
        #expect(refunds.variance(kind: .mean) == (150 - 400.0 / 4) / 3)
    }

    @Test func proportionVarianceIsPTimesOneMinusP() throws {
        let group = try GroupStatistics.proportion(subjects: 200, conversions: 50)
        #expect(group.sum == 50 && group.sumSquares == 50)
        #expect(group.mean() == 0.25)
        #expect(group.variance(kind: .proportion) == 0.25 * 0.75)
    }

    @Test func meanVarianceIsTheSampleVariance() throws {
        // Values 1, 2, 3, 6: mean 3, sample variance (4 + 1 + 0 + 9) / 3.
        let group = try GroupStatistics(subjects: 4, sum: 12, sumSquares: 50)
        #expect(group.mean() == 3)
        #expect(group.variance(kind: .mean) == 14.0 / 3)
    }

    @Test func emptyAndSingleSubjectGroups() throws {
        let empty = try GroupStatistics(subjects: 0, sum: 0, sumSquares: 0)
        #expect(empty.mean() == nil)
        #expect(empty.variance(kind: .proportion) == nil)
        #expect(empty.variance(kind: .mean) == nil)
        let single = try GroupStatistics(subjects: 1, sum: 7, sumSquares: 49)
        #expect(single.mean() == 7)
        #expect(single.variance(kind: .mean) == nil)
        let singleConversion = try GroupStatistics.proportion(subjects: 1, conversions: 1)
        #expect(singleConversion.variance(kind: .proportion) == 0)
    }
}
