/// Lays variants out on the bucket space and ramps them while moving the fewest subjects.
public enum Allocation {
    /// Contiguous ranges from bucket 0 in the order given: 20/30/50 → [0,2000) [2000,5000) [5000,10000).
    public static func layout(_ weights: [Weight]) -> [[BucketRange]] {
        var start = 0
        return weights.map { weight in
            defer { start += weight.buckets }
            return weight.buckets == 0 ? [] : [BucketRange(start, start + weight.buckets)]
        }
    }

    /// Re-lays out `variants` to `newWeights` (same order, sum ≤ 100 %) moving the fewest buckets.
    ///
    /// A shrinking variant releases its highest buckets; growing variants, in order, take the
    /// released buckets first (lowest first) and unallocated ones after; nobody else moves. The
    /// buckets that change owner then number Σ max(0, new − old) over the variants and the
    /// unallocated pool, the total-variation distance between the old and new weights.
    public static func ramp(_ variants: [Variant], to newWeights: [Weight]) -> RampPlan {
        var owners = OwnerMap(variants)
        let before = owners
        var unallocated = owners.unallocatedBuckets()[...]
        var released: [Int] = []
        for (index, variant) in variants.enumerated() where newWeights[index].buckets < variant.weight.buckets {
            let surplus = variant.weight.buckets - newWeights[index].buckets
            released += owners.release(last: surplus, of: index)
        }
        released.sort()
        var releasedQueue = released[...]
        for (index, variant) in variants.enumerated() where newWeights[index].buckets > variant.weight.buckets {
            for _ in 0..<(newWeights[index].buckets - variant.weight.buckets) {
                if let bucket = releasedQueue.popFirst() ?? unallocated.popFirst() { owners.assign(bucket, to: index) }
            }
        }
        var result = variants
        for index in result.indices {
            result[index].weight = newWeights[index]
            result[index].ranges = owners.ranges(of: index)
        }
        return RampPlan(variants: result, movedBuckets: owners.changedOwners(since: before))
    }

    /// How many buckets change owner between two weightings at the least: the total-variation
    /// distance in buckets (divide by `Weight.bucketCount` for the share). `ramp` moves exactly this many.
    public static func minimumMovedBuckets(from old: [Weight], to new: [Weight]) -> Int {
        let grown = zip(old, new).reduce(0) { $0 + max(0, $1.1.buckets - $1.0.buckets) }
        let oldPool = Weight.bucketCount - old.reduce(0) { $0 + $1.buckets }
        let newPool = Weight.bucketCount - new.reduce(0) { $0 + $1.buckets }
        return grown + max(0, newPool - oldPool)
    }
}

/// The outcome of a ramp: the variants with their new weights and ranges, and how many buckets moved.
public struct RampPlan: Hashable, Sendable {
    public let variants: [Variant]
    /// Buckets whose owner (a variant, or the unallocated pool) changes.
    public let movedBuckets: Int

    /// The share of subjects (0…1) whose bucket changes owner.
    public var movedShare: Double { Double(movedBuckets) / Double(Weight.bucketCount) }
}
