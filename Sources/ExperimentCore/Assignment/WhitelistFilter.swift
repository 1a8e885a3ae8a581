/// A compact probabilistic set of an experiment's whitelisted subjects, so that the common
/// "not whitelisted" answer costs one memory read instead of hashing the subject into a dictionary.
///
/// It holds the first bucketing hash, `fnv1a32(salt + subject)`, of every whitelisted subject in
/// a blocked Bloom filter: one 64-bit word per lookup, three bits, about 8 bits per entry (a million
/// entries take 1 MB, so they mostly stay in cache; about 3 % false positives). The decision computes
/// that hash anyway, so the filter adds no hashing; a "maybe" is confirmed by the whitelist
/// dictionary, so answers never change.
///
/// The words are allocated here and freed by the owner (`CompiledExperiment.Storage`) with
/// `deallocate()`; the filter itself is a plain value read in place.
/// `@unchecked Sendable`: `words` are written in `init` and only read after (their owner frees them).
@usableFromInline
struct WhitelistFilter: @unchecked Sendable {
    @usableFromInline let words: UnsafeMutablePointer<UInt64>?
    @usableFromInline let indexShift: UInt64

    /// A filter holding `firstHashes` (empty when there are none).
    init(firstHashes: [UInt32]) {
        guard !firstHashes.isEmpty else {
            words = nil
            indexShift = 0
            return
        }
        var count = 2
        while count < firstHashes.count / 8 { count *= 2 }
        indexShift = UInt64(64 - count.trailingZeroBitCount)
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        words.initialize(repeating: 0, count: count)
        for hash in firstHashes {
            let (index, mask) = WhitelistFilter.slot(hash, indexShift)
            words[index] |= mask
        }
        self.words = words
    }

    /// Frees the words (called once, by the owner).
    func deallocate() { words?.deallocate() }

    /// Whether no subject is whitelisted.
    @inlinable var isEmpty: Bool { words == nil }

    /// False when the subject with this first hash is certainly not whitelisted.
    @inlinable @inline(__always)
    func mayContain(firstHash: UInt32) -> Bool {
        guard let words else { return false }
        let (index, mask) = WhitelistFilter.slot(firstHash, indexShift)
        return words[index] & mask == mask
    }

    /// The word and the three bits of `hash`, from a multiplicative mix (FNV's low bits mix poorly).
    @inlinable @inline(__always)
    static func slot(_ hash: UInt32, _ indexShift: UInt64) -> (Int, UInt64) {
        let mixed = UInt64(hash) &* 0x9E37_79B9_7F4A_7C15
        let mask = (1 as UInt64) &<< (mixed &>> 20) | (1 as UInt64) &<< (mixed &>> 26) | (1 as UInt64) &<< (mixed &>> 32)
        return (Int(truncatingIfNeeded: mixed &>> indexShift), mask)
    }
}
