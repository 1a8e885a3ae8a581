/// Sufficient statistics of one variant for one metric: subjects, the sum and the sum of squares.
public struct GroupStatistics: Equatable, Sendable {
    /// Analysed subjects of the variant.
    public let subjects: Int
    /// Sum over subjects (for a proportion: the subjects who converted).
    public let sum: Double
    /// Sum of squared per-subject values (for a proportion, pass `sum`: 0 and 1 square to themselves).
    public let sumSquares: Double

    /// Checks that the numbers can describe a sample: `subjects >= 0`, finite sums, `sumSquares >= 0`,
    /// and both sums 0 when there are no subjects.
    public init(subjects: Int, sum: Double, sumSquares: Double) throws {
        guard subjects >= 0 else {
            throw StatisticsError("subjects is \(subjects); it cannot be negative")
        }
        guard sum.isFinite, sumSquares.isFinite else {
            throw StatisticsError("sum (\(sum)) and sum of squares (\(sumSquares)) must be finite numbers")
        }
        guard sumSquares >= 0 else {
            throw StatisticsError("sum of squares is \(sumSquares); a sum of squares cannot be negative")
        }
        guard subjects > 0 || (sum == 0 && sumSquares == 0) else {
            throw StatisticsError("sum and sum of squares must be 0 when there are no subjects")
        }
        self.subjects = subjects
        self.sum = sum
        self.sumSquares = sumSquares
    }

    /// A proportion metric's statistics: `conversions` of `subjects` converted (0 ≤ conversions ≤ subjects).
    public static func proportion(subjects: Int, conversions: Int) throws -> GroupStatistics {
        guard conversions >= 0, conversions <= subjects else {
            throw StatisticsError("\(conversions) conversions among \(subjects) subjects; conversions must be between 0 and the subjects")
        }
        return try GroupStatistics(subjects: subjects, sum: Double(conversions), sumSquares: Double(conversions))
    }

    /// The mean per subject (the conversion rate for a proportion); nil when there are no subjects.
    public func mean() -> Double? {
        guard subjects > 0 else { return nil }
        return sum / Double(subjects)
    }

    /// The per-subject variance of SPEC §8: `p(1−p)` for a proportion, `(ss − s²/n)/(n−1)` for a mean.
    ///
    /// nil when there are no subjects, and for a mean when there is a single subject. The value is
    /// returned as computed, so rounding or inconsistent sums can make it 0 or negative; a comparison
    /// treats that as "no estimate".
    public func variance(kind: MetricKind) -> Double? {
        guard let mean = mean() else { return nil }
        switch kind {
        case .proportion:
            return mean * (1 - mean)
        case .mean:
            guard subjects > 1 else { return nil }
            let n = Double(subjects)
            return (sumSquares - sum * sum / n) / (n - 1)
        }
    }
}
