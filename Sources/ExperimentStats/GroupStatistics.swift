/// Sufficient statistics of one variant for one metric: subjects, the sum and the sum of squares.
public struct GroupStatistics: Equatable, Sendable {
    /// Analysed subjects of the variant.
    public let subjects: Int
    /// Sum over subjects (for a proportion: the subjects who converted).
    public let sum: Double
    /// Sum of squared per-subject values (for a proportion, pass `sum`: 0 and 1 square to themselves).
    public let sumSquares: Double
    /// Σ (value − mean)² when the caller computed it from the values (two passes); nil from sums alone.
    public let squaredDeviations: Double?

    /// How far `sumSquares` may fall below `sum²/subjects` by rounding, relative to the larger.
    static let roundingTolerance = 1e-9

    /// Checks that the numbers can describe a sample: `subjects >= 0`, finite sums, `sumSquares >= 0`,
    /// both sums 0 when there are no subjects, and `sumSquares >= sum²/subjects` (up to rounding):
    /// no values have a smaller sum of squares than their mean squared, times their count.
    public init(subjects: Int, sum: Double, sumSquares: Double, squaredDeviations: Double? = nil) throws(StatisticsError) {
        guard subjects >= 0 else {
            throw StatisticsError("subjects is \(subjects); it cannot be negative", field: .subjects)
        }
        guard sum.isFinite else { throw StatisticsError("sum (\(sum)) must be a finite number", field: .sum) }
        guard sumSquares.isFinite else { throw StatisticsError("sum of squares (\(sumSquares)) must be a finite number", field: .sumSquares) }
        guard sumSquares >= 0 else {
            throw StatisticsError("sum of squares is \(sumSquares); a sum of squares cannot be negative", field: .sumSquares)
        }
        guard subjects > 0 || (sum == 0 && sumSquares == 0) else {
            throw StatisticsError("sum and sum of squares must be 0 when there are no subjects", field: sum != 0 ? .sum : .sumSquares)
        }
        if let squaredDeviations {
            guard squaredDeviations.isFinite, squaredDeviations >= 0 else {
                throw StatisticsError("the squared deviations (\(squaredDeviations)) must be a finite number of at least 0", field: .sumSquares)
            }
        } else if subjects > 0 {
            let floor = sum * (sum / Double(subjects))
            guard sumSquares - floor >= -Self.roundingTolerance * Swift.max(sumSquares, floor) else {
                throw StatisticsError("sum of squares \(Self.text(sumSquares)) is less than sum²/subjects = \(Self.text(floor)); no values have these sums", field: .sumSquares)
            }
        }
        self.subjects = subjects
        self.sum = sum
        self.sumSquares = sumSquares
        self.squaredDeviations = squaredDeviations
    }

    /// No subjects, both sums 0: a variant nobody was analysed in.
    public static let empty = GroupStatistics()

    private init() {
        subjects = 0
        sum = 0
        sumSquares = 0
        squaredDeviations = nil
    }

    /// A mean metric's statistics from sums alone (a pre-aggregated summary): as `init`, and refused
    /// when the sums cannot carry the spread of the values: when `sumSquares` and `sum²/subjects`
    /// agree to nine digits their difference (the variance) is rounding, not data — unless every
    /// value is provably the same (the mean squared exactly, times the subjects, is the sum of squares).
    public static func mean(subjects: Int, sum: Double, sumSquares: Double) throws(StatisticsError) -> GroupStatistics {
        let statistics = try GroupStatistics(subjects: subjects, sum: sum, sumSquares: sumSquares)
        guard subjects > 1 else { return statistics }
        let n = Double(subjects)
        let floor = sum * (sum / n)
        guard abs(sumSquares - floor) < roundingTolerance * Swift.max(sumSquares, floor) else { return statistics }
        let mean = sum / n
        let square = mean * mean
        let constant = mean * n == sum && (-square).addingProduct(mean, mean) == 0
            && square * n == sumSquares
        guard constant else {
            throw StatisticsError("sum of squares \(text(sumSquares)) and sum²/subjects \(text(floor)) agree to nine digits, so these sums cannot carry the spread of the values (large values that vary little); give the raw logs instead, which are summed in two passes",
                                  field: .sumSquares)
        }
        return statistics
    }

    /// A proportion metric's statistics: `conversions` of `subjects` converted (0 ≤ conversions ≤ subjects).
    public static func proportion(subjects: Int, conversions: Int) throws(StatisticsError) -> GroupStatistics {
        guard conversions >= 0, conversions <= subjects else {
            throw StatisticsError("\(conversions) conversions among \(subjects) subjects; conversions must be between 0 and the subjects", field: .sum)
        }
        return try GroupStatistics(subjects: subjects, sum: Double(conversions), sumSquares: Double(conversions))
    }

    /// A proportion metric's statistics from sums: the sum a whole number of conversions, and the
    /// sum of squares equal to it (0 and 1 square to themselves).
    public static func proportion(subjects: Int, sum: Double, sumSquares: Double) throws(StatisticsError) -> GroupStatistics {
        guard sum.isFinite, sum == sum.rounded(), let conversions = Int(exactly: sum) else {
            throw StatisticsError("a proportion's sum counts converted subjects, so it is a whole number, not \(text(sum))", field: .sum)
        }
        guard sumSquares == sum else {
            throw StatisticsError("a proportion's sum of squares equals its sum (0 and 1 square to themselves): \(text(sumSquares)) is not \(text(sum))", field: .sumSquares)
        }
        return try proportion(subjects: subjects, conversions: conversions)
    }

    /// The mean per subject (the conversion rate for a proportion); nil when there are no subjects.
    public func mean() -> Double? {
        guard subjects > 0 else { return nil }
        return sum / Double(subjects)
    }

    /// The per-subject variance of SPEC §8: `p(1−p)` for a proportion, `(ss − s²/n)/(n−1)` for a mean
    /// (or the squared deviations over `n − 1` when they were given: the same number without cancellation).
    ///
    /// nil when there are no subjects, and for a mean when there is a single subject. The value is
    /// returned as computed, so rounding can make it 0 or slightly negative; a comparison treats that
    /// as "no estimate".
    public func variance(kind: MetricKind) -> Double? {
        guard let mean = mean() else { return nil }
        switch kind {
        case .proportion:
            return mean * (1 - mean)
        case .mean:
            guard subjects > 1 else { return nil }
            let n = Double(subjects)
            if let squaredDeviations { return squaredDeviations / (n - 1) }
            return (sumSquares - sum * sum / n) / (n - 1)
        }
    }

    /// A number for a message: up to 17 significant digits, no trailing zeros.
    private static func text(_ value: Double) -> String { "\(value)" }
}
