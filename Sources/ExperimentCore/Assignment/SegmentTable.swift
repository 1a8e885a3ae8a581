/// Which variant owns a bucket, for experiments of up to eight segments (almost all of them),
/// found without branches, multiplies or memory reads beyond this value.
///
/// The segment of a bucket is the number of segment starts at or below it. The starts sit in 16-bit
/// lanes of two words; subtracting them from the bucket (repeated in every lane, with each lane's
/// top bit set) leaves a lane's top bit set exactly when its start is at or below the bucket, and a
/// few shifts add those bits up. The owners sit in the bytes of a third word. Experiments with more
/// segments (or a variant index over 127) are searched by `CompiledExperiment.Storage` instead.
@usableFromInline
struct SegmentTable: Sendable {
    /// The starts of segments 1…4 and 5…8 in 16-bit lanes; unused lanes hold 0x7FFF (above every bucket).
    @usableFromInline let lowStarts: UInt64
    @usableFromInline let highStarts: UInt64
    /// The owner of segment `i` in byte `i`, as an `Int8` (-1 when unallocated).
    @usableFromInline let packedOwners: UInt64
    /// Whether `owner(of:)` may be used.
    @usableFromInline let isPacked: Bool

    /// `starts` ascending from 0; `owners[i]` owns `starts[i]..<starts[i + 1]`.
    init(starts: [Int], owners: [Int]) {
        isPacked = starts.count <= 8 && owners.allSatisfy { (-1...127).contains($0) }
        var lanes = [UInt64](repeating: 0x7FFF, count: 8)
        var packed: UInt64 = 0
        if isPacked {
            for index in starts.indices.dropFirst() { lanes[index - 1] = UInt64(starts[index]) }
            for (index, owner) in owners.enumerated() { packed |= UInt64(UInt8(bitPattern: Int8(owner))) << (8 * UInt64(index)) }
        }
        lowStarts = lanes[0] | lanes[1] << 16 | lanes[2] << 32 | lanes[3] << 48
        highStarts = lanes[4] | lanes[5] << 16 | lanes[6] << 32 | lanes[7] << 48
        packedOwners = packed
    }

    /// The variant index owning `bucket` (0..<10000), or -1 when it is unallocated. Requires `isPacked`.
    @inlinable @inline(__always)
    func owner(of bucket: Int) -> Int {
        let topBits: UInt64 = 0x8000_8000_8000_8000
        var repeated = UInt64(truncatingIfNeeded: bucket) & 0x7FFF
        repeated |= repeated &<< 16
        repeated |= repeated &<< 32
        repeated |= topBits
        var counts = ((repeated &- lowStarts) & topBits) &>> 15 &+ ((repeated &- highStarts) & topBits) &>> 15
        counts &+= counts &>> 32
        counts &+= counts &>> 16
        let segment = counts & 0xF
        return Int(Int8(truncatingIfNeeded: packedOwners &>> (segment &* 8)))
    }
}
