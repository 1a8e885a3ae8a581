/// One arm of an experiment: its weight, the buckets it owns and an optional JSON payload.
public struct Variant: Hashable, Sendable {
    public var name: String
    public var weight: Weight
    /// Sorted, non-overlapping, coalesced ranges whose sizes add up to `weight.buckets`.
    public var ranges: [BucketRange]
    public var payload: JSONValue?
    /// Fields a newer abconsole wrote that this one does not know, by name: kept through every change and merge (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    /// A variant as given, unchecked (ranges against weight); the validator judges it.
    package init(name: String, weight: Weight, ranges: [BucketRange], payload: JSONValue? = nil) {
        self.name = name
        self.weight = weight
        self.ranges = ranges
        self.payload = payload
    }
}
