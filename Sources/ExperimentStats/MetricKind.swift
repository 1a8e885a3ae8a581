/// How a metric's per-subject values are read: a 0/1 conversion or a numeric value (SPEC §8).
public enum MetricKind: String, Sendable, CaseIterable {
    /// Each subject converted or not; `sum` counts the subjects who converted.
    case proportion
    /// Each subject carries a number (0 when it logged none); `sum` and `sumSquares` are over subjects.
    case mean
}
