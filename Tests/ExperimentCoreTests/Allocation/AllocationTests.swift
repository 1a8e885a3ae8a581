import ExperimentTestSupport
import Testing
@testable import ExperimentCore

/// Laying variants out on the 10 000 buckets and ramping them with the fewest moves (SPEC §3).
struct AllocationTests {
    // MARK: Layout

    @Test func layoutIsContiguousFromZeroInOrder() {
        let ranges = Allocation.layout([Weight(buckets: 2000), Weight(buckets: 3000), Weight(buckets: 5000)])
        #expect(ranges == [[BucketRange(0, 2000)], [BucketRange(2000, 5000)], [BucketRange(5000, 10_000)]])
    }

    @Test func zeroWeightsGetNoRangeAndLeaveNoGap() {
        let ranges = Allocation.layout([Weight(buckets: 0), Weight(buckets: 1250), Weight(buckets: 0), Weight(buckets: 1)])
        #expect(ranges == [[], [BucketRange(0, 1250)], [], [BucketRange(1250, 1251)]])
    }

    @Test func layoutUnderHundredLeavesTheTopUnallocated() {
        let ranges = Allocation.layout([Weight(buckets: 1000), Weight(buckets: 1000)])
        #expect(ranges == [[BucketRange(0, 1000)], [BucketRange(1000, 2000)]])
        let owners = Self.owners(of: Self.laidOut([("a", 1000), ("b", 1000)]))
        #expect(owners.filter { $0 == -1 }.count == 8000)
    }

    // MARK: Ramp examples

    @Test func fiftyFiftyToSeventyThirtyMovesTwoThousandFromTheTopOfTreatment() {
        let old = Self.laidOut([("control", 5000), ("treatment", 5000)])
        let plan = Allocation.ramp(old, to: [Weight(buckets: 7000), Weight(buckets: 3000)])
        #expect(plan.movedBuckets == 2000)
        #expect(plan.movedShare == 0.2)
        #expect(plan.variants.map(\.weight) == [Weight(buckets: 7000), Weight(buckets: 3000)])
        #expect(plan.variants[0].ranges == [BucketRange(0, 5000), BucketRange(8000, 10_000)])
        #expect(plan.variants[1].ranges == [BucketRange(5000, 8000)])
    }

    @Test func growingIntoTheUnallocatedPoolTakesUnallocatedBuckets() {
        // 10/0 with 90 % unallocated → 20/0: 1000 buckets move, all from the pool, lowest first.
        let old = Self.laidOut([("a", 1000), ("b", 0)])
        let plan = Allocation.ramp(old, to: [Weight(buckets: 2000), Weight(buckets: 0)])
        #expect(plan.movedBuckets == 1000)
        #expect(plan.variants[0].ranges == [BucketRange(0, 2000)])
        #expect(plan.variants[1].ranges == [])
    }

    @Test func releasedBucketsAreTakenBeforeUnallocatedOnes() {
        // a 30 → 10 releases [1000, 3000); b 20 → 50 takes those, then 1000 unallocated from 5000 up.
        let old = Self.laidOut([("a", 3000), ("b", 2000)])
        let plan = Allocation.ramp(old, to: [Weight(buckets: 1000), Weight(buckets: 5000)])
        #expect(plan.variants[0].ranges == [BucketRange(0, 1000)])
        #expect(plan.variants[1].ranges == [BucketRange(1000, 6000)])
        #expect(plan.movedBuckets == 3000)
        #expect(Allocation.minimumMovedBuckets(from: old.map(\.weight), to: plan.variants.map(\.weight)) == 3000)
    }

    @Test func shrinkingIntoThePoolMovesOnlyTheReleasedBuckets() {
        let old = Self.laidOut([("a", 5000), ("b", 5000)])
        let plan = Allocation.ramp(old, to: [Weight(buckets: 5000), Weight(buckets: 1000)])
        #expect(plan.movedBuckets == 4000)
        #expect(plan.variants[0].ranges == [BucketRange(0, 5000)])
        #expect(plan.variants[1].ranges == [BucketRange(5000, 6000)])
    }

    @Test func newZeroVariantRampedUpTakesFromTheShrinkingOnes() {
        let old = Self.laidOut([("control", 5000), ("treatment", 5000), ("late", 0)])
        let plan = Allocation.ramp(old, to: [Weight(buckets: 4000), Weight(buckets: 4000), Weight(buckets: 2000)])
        #expect(plan.movedBuckets == 2000)
        #expect(plan.variants[0].ranges == [BucketRange(0, 4000)])
        #expect(plan.variants[1].ranges == [BucketRange(5000, 9000)])
        #expect(plan.variants[2].ranges == [BucketRange(4000, 5000), BucketRange(9000, 10_000)])
    }

    @Test func unchangedWeightsMoveNothing() {
        let old = Self.laidOut([("a", 2000), ("b", 3000), ("c", 5000)])
        let plan = Allocation.ramp(old, to: old.map(\.weight))
        #expect(plan.movedBuckets == 0)
        #expect(plan.variants == old)
    }

    @Test func minimumMovedBucketsIsTheTotalVariationDistance() {
        func moved(_ old: [Int], _ new: [Int]) -> Int {
            Allocation.minimumMovedBuckets(from: old.map(Weight.init(buckets:)), to: new.map(Weight.init(buckets:)))
        }
        #expect(moved([5000, 5000], [7000, 3000]) == 2000)
        #expect(moved([1000, 0], [2000, 0]) == 1000)
        #expect(moved([5000, 5000], [5000, 1000]) == 4000)
        #expect(moved([3000, 2000], [1000, 5000]) == 3000)
        #expect(moved([2500, 2500], [2500, 2500]) == 0)
        #expect(moved([0, 0], [10_000, 0]) == 10_000)
        #expect(moved([10_000, 0], [0, 10_000]) == 10_000)
    }

    // MARK: Ramp properties over seeded random sequences

    @Test(arguments: [UInt64(1), 2, 0xDEAD_BEEF])
    func rampSequencesKeepEveryInvariant(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 2...5, using: &random)
        let names = (0..<count).map { "v\($0)" }
        var variants = Self.laidOut(zip(names, Self.randomWeights(count, using: &random)).map { ($0.0, $0.1) })
        #expect(Self.checkInvariants(variants))
        for step in 0..<20 { // each ramp takes ~25 ms in a debug build
            let oldWeights = variants.map(\.weight.buckets)
            let newWeights = Self.randomWeights(count, using: &random)
            let before = Self.owners(of: variants)
            let plan = Allocation.ramp(variants, to: newWeights.map(Weight.init(buckets:)))
            let after = Self.owners(of: plan.variants)
            // One pass: count owner changes; a variant that does not shrink loses nothing and one
            // that does not grow gains nothing.
            var changed = 0, lostByNonShrinking = 0, gainedByNonGrowing = 0
            for bucket in 0..<Weight.bucketCount where before[bucket] != after[bucket] {
                changed += 1
                let old = before[bucket], new = after[bucket]
                if old >= 0, newWeights[old] >= oldWeights[old] { lostByNonShrinking += 1 }
                if new >= 0, newWeights[new] <= oldWeights[new] { gainedByNonGrowing += 1 }
            }
            let minimum = Allocation.minimumMovedBuckets(from: variants.map(\.weight), to: newWeights.map(Weight.init(buckets:)))
            guard Self.checkInvariants(plan.variants), plan.variants.map(\.weight.buckets) == newWeights,
                  plan.variants.map(\.name) == names, plan.movedBuckets == changed, changed == minimum,
                  lostByNonShrinking == 0, gainedByNonGrowing == 0 else {
                Issue.record("""
                    seed \(seed) step \(step): \(oldWeights) → \(newWeights) moved \(plan.movedBuckets), changed \(changed), \
                    minimum \(minimum), lost by non-shrinking \(lostByNonShrinking), gained by non-growing \(gainedByNonGrowing)
                    """)
                return
            }
            variants = plan.variants
        }
    }

    // MARK: Helpers

    /// Variants laid out by `Allocation.layout`, as create does.
    static func laidOut(_ weights: [(String, Int)]) -> [Variant] {
        let ranges = Allocation.layout(weights.map { Weight(buckets: $0.1) })
        return zip(weights, ranges).map { Variant(name: $0.0.0, weight: Weight(buckets: $0.0.1), ranges: $0.1) }
    }

    /// The owner index of every bucket (-1 when unallocated), computed independently of `OwnerMap`.
    static func owners(of variants: [Variant]) -> [Int] {
        var owners = [Int](repeating: -1, count: Weight.bucketCount)
        for (index, variant) in variants.enumerated() {
            for range in variant.ranges { for bucket in range.start..<range.end { owners[bucket] = index } }
        }
        return owners
    }

    /// `count` random weights in buckets summing to at most 10 000, often with zeros and exact 100 %.
    static func randomWeights(_ count: Int, using random: inout SplitMix64) -> [Int] {
        let total = Bool.random(using: &random) ? Weight.bucketCount : Int.random(in: 0...Weight.bucketCount, using: &random)
        var cuts = (0..<(count - 1)).map { _ in Int.random(in: 0...total, using: &random) }.sorted()
        cuts = [0] + cuts + [total]
        return (0..<count).map { index in
            let weight = cuts[index + 1] - cuts[index]
            return Int.random(in: 0..<5, using: &random) == 0 ? 0 : weight
        }
    }

    /// Ranges within 0..<10000, non-empty, sorted, coalesced, never overlapping, summing to each weight.
    static func checkInvariants(_ variants: [Variant]) -> Bool {
        var seen = [Bool](repeating: false, count: Weight.bucketCount)
        for variant in variants {
            var total = 0
            for (index, range) in variant.ranges.enumerated() {
                guard range.start >= 0, range.end <= Weight.bucketCount, range.start < range.end else { return false }
                if index > 0, variant.ranges[index - 1].end >= range.start { return false }
                for bucket in range.start..<range.end {
                    if seen[bucket] { return false }
                    seen[bucket] = true
                }
                total += range.count
            }
            if total != variant.weight.buckets { return false }
        }
        return true
    }
}
