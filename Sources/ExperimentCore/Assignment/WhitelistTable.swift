/// An experiment's whitelist as flat arrays keyed by each subject's first bucketing hash, for the
/// fast paths: confirming a whitelist filter's "maybe" costs a probe and a byte comparison instead
/// of hashing the id again into the whitelist dictionary (several cache misses deep in a large store).
///
/// The slots are open-addressed by `fnv1a32(salt + subject)`, which every decision computes anyway;
/// a slot holds that hash and the entry's position, and a hit is confirmed by comparing the id's
/// UTF-8 bytes, so the answer is exactly the dictionary's (`CompiledExperiment.decide` still reads
/// the dictionary). Entries whose variant no longer exists are left out, as the dictionary path
/// ignores them too.
struct WhitelistTable: Sendable {
    /// `firstHash << 32 | (entry + 1)`; 0 is an empty slot. At most half full.
    private let slots: [UInt64]
    private let mask: Int
    /// Every entry's id bytes, back to back, and where each one ends.
    private let bytes: [UInt8]
    private let ends: [Int]
    private let variants: [Int]

    /// A table of `entries`: each subject's id, its first hash under the experiment's salt, and its variant index.
    init(_ entries: [(id: String, firstHash: UInt32, variant: Int)]) {
        var count = 2
        while count < 2 * entries.count { count *= 2 }
        var slots = [UInt64](repeating: 0, count: entries.isEmpty ? 0 : count)
        var bytes: [UInt8] = [], ends: [Int] = [], variants: [Int] = []
        bytes.reserveCapacity(entries.count * 16)
        ends.reserveCapacity(entries.count)
        variants.reserveCapacity(entries.count)
        for entry in entries {
            if entry.id.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: entry.id.utf8) }
            ends.append(bytes.count)
            variants.append(entry.variant)
            var slot = WhitelistTable.start(entry.firstHash, count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (count - 1) }
            slots[slot] = UInt64(entry.firstHash) << 32 | UInt64(variants.count)
        }
        self.slots = slots
        mask = count - 1
        self.bytes = bytes
        self.ends = ends
        self.variants = variants
    }

    /// The first slot to probe for `firstHash` (a multiplicative mix: FNV's low bits mix poorly).
    private static func start(_ firstHash: UInt32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(firstHash) &* 0xD6E8_FEB8_6659_FD93) >> 32) & mask
    }

    /// The variant index of the subject whose UTF-8 bytes are `id` and first hash `firstHash`, if listed.
    func variantIndex(firstHash: UInt32, id: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            var slot = WhitelistTable.start(firstHash, mask)
            while slots[slot] != 0 {
                if UInt32(truncatingIfNeeded: slots[slot] >> 32) == firstHash {
                    let entry = Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1
                    let start = entry == 0 ? 0 : ends[entry - 1]
                    if ends[entry] - start == id.count, bytes[start..<ends[entry]].elementsEqual(id) { return variants[entry] }
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// The variant index of subject `id` with first hash `firstHash`, if listed.
    func variantIndex(firstHash: UInt32, id: String) -> Int? {
        if let found = id.utf8.withContiguousStorageIfAvailable({ variantIndex(firstHash: firstHash, id: $0) }) { return found }
        return Array(id.utf8).withUnsafeBufferPointer { variantIndex(firstHash: firstHash, id: $0) }
    }
}
