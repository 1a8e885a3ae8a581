/// Sufficient statistics that cannot describe any sample, with a message a person can act on.
public struct StatisticsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the input, in plain words.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
