/// A closed interval of relative lift, `lower ≤ upper`.
public struct Interval: Equatable, Sendable {
    public let lower: Double
    public let upper: Double

    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether the interval holds `value`.
    public func contains(_ value: Double) -> Bool {
        lower <= value && value <= upper
    }
}
