/// Sufficient statistics that cannot describe any sample, with a message a person can act on.
public struct StatisticsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which of the sufficient statistics is wrong.
    public enum Field: String, Equatable, Sendable {
        case subjects, sum, sumSquares = "sum_squares", crossSum = "cross_sum"
        case covariateSum = "covariate_sum", covariateSumSquares = "covariate_sum_squares"
    }

    /// What is wrong with the input, in plain words.
    public let message: String
    /// The number at fault, when one is.
    public let field: Field?

    public init(_ message: String, field: Field? = nil) {
        self.message = message
        self.field = field
    }

    public var description: String { message }
}
