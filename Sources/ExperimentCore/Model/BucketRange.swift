/// A half-open range `[start, end)` of buckets owned by one variant.
public struct BucketRange: Hashable, Sendable, Comparable {
    public let start: Int
    public let end: Int

    /// The range `[start, end)` if it is non-empty and within `[0, 10000)`.
    public init?(start: Int, end: Int) {
        guard 0 <= start, start < end, end <= Weight.bucketCount else { return nil }
        self.init(start, end)
    }

    /// The range `[start, end)`, unchecked: the store reader keeps what a file holds so that the
    /// validator can name a reversed or out-of-range range with its JSON path.
    package init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = end
    }

    /// How many buckets the range holds.
    public var count: Int { end - start }

    public static func < (lhs: BucketRange, rhs: BucketRange) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }
}
