/// Which variant owns a bucket: the segments of the bucket space, searched without branches.
///
/// With up to eight segments (almost every experiment) the segment of a bucket is the number of
/// segment starts at or below it, counted with one vector compare; the owners sit in the bytes of
/// one word. More segments fall back to a binary search.
struct SegmentTable: Sendable {
    /// The starts of segments 1…7 (segment 0 starts at 0); unused lanes hold `Int16.max`.
    private let bounds: SIMD8<Int16>
    /// The owner of segment `i` in byte `i`, as an `Int8` (-1 when unallocated).
    private let packedOwners: UInt64
    private let isPacked: Bool
    /// The first bucket of each segment, ascending, and its owner (-1 when unallocated).
    private let starts: [Int]
    private let owners: [Int]
    private static let positions = SIMD8<Int16>(1, 2, 3, 4, 5, 6, 7, 8)

    /// `starts` ascending from 0; `owners[i]` owns `starts[i]..<starts[i + 1]`.
    init(starts: [Int], owners: [Int]) {
        self.starts = starts
        self.owners = owners
        isPacked = starts.count <= 8 && owners.allSatisfy { (-1...127).contains($0) }
        var bounds = SIMD8<Int16>(repeating: .max)
        var packed: UInt64 = 0
        if isPacked {
            for index in starts.indices.dropFirst() { bounds[index - 1] = Int16(starts[index]) }
            for (index, owner) in owners.enumerated() { packed |= UInt64(UInt8(bitPattern: Int8(owner))) << (8 * UInt64(index)) }
        }
        self.bounds = bounds
        packedOwners = packed
    }

    /// The variant index owning `bucket` (0..<10000), or -1 when it is unallocated.
    @inline(__always)
    func owner(of bucket: Int) -> Int {
        guard isPacked else { return searchedOwner(of: bucket) }
        // The segment is the number of starts at or below the bucket: the highest position (1…8)
        // whose start is still at or below it, found with compares and a max (no multiply).
        let above = bounds .> SIMD8<Int16>(repeating: Int16(truncatingIfNeeded: bucket))
        let segment = SegmentTable.positions.replacing(with: 0, where: above).max()
        return Int(Int8(truncatingIfNeeded: packedOwners &>> (UInt64(truncatingIfNeeded: segment) &* 8)))
    }

    private func searchedOwner(of bucket: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= bucket { low = mid } else { high = mid - 1 }
        }
        return owners[low]
    }
}
