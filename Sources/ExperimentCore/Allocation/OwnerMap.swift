/// The owner of every bucket (a variant index, or -1 when unallocated), for re-laying out ranges.
struct OwnerMap: Equatable {
    static let unallocated: Int16 = -1
    private var owners: [Int16]

    /// The map of `variants`' ranges; buckets nobody owns are unallocated.
    init(_ variants: [Variant]) {
        owners = Array(repeating: OwnerMap.unallocated, count: Weight.bucketCount)
        for (index, variant) in variants.enumerated() {
            for range in variant.ranges { for bucket in range.start..<range.end { owners[bucket] = Int16(index) } }
        }
    }

    /// Frees the highest `count` buckets of variant `index` and returns them.
    mutating func release(last count: Int, of index: Int) -> [Int] {
        var freed: [Int] = []
        var bucket = owners.count - 1
        while freed.count < count, bucket >= 0 {
            if owners[bucket] == Int16(index) {
                owners[bucket] = OwnerMap.unallocated
                freed.append(bucket)
            }
            bucket -= 1
        }
        return freed
    }

    /// Gives `bucket` to variant `index`.
    mutating func assign(_ bucket: Int, to index: Int) { owners[bucket] = Int16(index) }

    /// Buckets nobody owns, ascending.
    func unallocatedBuckets() -> [Int] { owners.indices.filter { owners[$0] == OwnerMap.unallocated } }

    /// The coalesced ranges owned by variant `index`.
    func ranges(of index: Int) -> [BucketRange] {
        var ranges: [BucketRange] = []
        let owner = Int16(index)
        var start: Int?
        for bucket in 0...owners.count {
            let owned = bucket < owners.count && owners[bucket] == owner
            if owned, start == nil { start = bucket }
            if !owned, let begin = start {
                ranges.append(BucketRange(begin, bucket))
                start = nil
            }
        }
        return ranges
    }

    /// How many buckets have a different owner than in `other`.
    func changedOwners(since other: OwnerMap) -> Int {
        zip(owners, other.owners).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }
}
