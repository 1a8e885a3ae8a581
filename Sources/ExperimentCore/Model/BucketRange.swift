/// A half-open range `[start, end)` of buckets owned by one variant.
public struct BucketRange: Hashable, Sendable, Comparable {
    public var start: Int
    public var end: Int

    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = end
    }

    /// How many buckets the range holds.
    public var count: Int { end - start }

    public static func < (lhs: BucketRange, rhs: BucketRange) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }
}
