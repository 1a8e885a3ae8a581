#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Subject ids interned by their bytes, each with its exposure state (first exposure, variant) and a
/// dense index 0, 1, 2, … for per-subject arrays.
///
/// Open addressing with linear probing. A slot holds the hash, the length, the index, the state
/// and, for ids of up to 16 bytes (most ids), the bytes themselves, so recording an exposure
/// usually touches one cache line; longer ids are compared against one byte arena. Looking an id
/// up allocates nothing. A class because it owns its slot memory (one table per analysis).
final class SubjectTable {
    /// 40 bytes.
    private struct Slot {
        var key0: UInt64 = 0
        var key1: UInt64 = 0
        /// The earliest exposure seen, nanoseconds since 1970.
        var first: Int64 = 0
        var hash: UInt32 = 0
        var length: UInt32 = 0
        /// The subject's index + 1; 0 for an empty slot.
        var entry: UInt32 = 0
        /// The variant index, or a marker of `SubjectStates`.
        var variant: Int16 = 0
    }

    /// Ids up to this many bytes live in their slot.
    private static let inline = 16

    /// An id's first 16 bytes and hash: what a lookup compares, computed once per row (any thread may compute it).
    struct Key {
        let key0: UInt64
        let key1: UInt64
        let hash: UInt32

        init(_ id: UnsafeBufferPointer<UInt8>) {
            (key0, key1) = SubjectTable.words(id)
            hash = SubjectTable.hash(id, key0, key1)
        }
    }

    // One thread at a time uses a table (the reads of the conversions pass come after the last change):
    // no dynamic exclusivity checks on the hot paths.
    @exclusivity(unchecked) private var slots: UnsafeMutableBufferPointer<Slot>
    @exclusivity(unchecked) private var mask: Int
    @exclusivity(unchecked) private var arena: [UInt8] = []
    /// Where each id's bytes start in `arena` (one more entry than ids).
    @exclusivity(unchecked) private var offsets: [Int] = [0]
    @exclusivity(unchecked) private(set) var count = 0
    /// Where `touch` leaves what it read (so the read is not optimised away).
    @exclusivity(unchecked) private var touched: UInt32 = 0

    init(capacity: Int = 1 << 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot())
        mask = size - 1
    }

    deinit { slots.deallocate() }

    /// The slot of `id`, interning it (with `variant` first exposed at `time`) when new; `isNew` tells which.
    func intern(_ id: UnsafeBufferPointer<UInt8>, variant: Int16, at time: Int64) -> (slot: Int, isNew: Bool) {
        intern(id, key: Key(id), variant: variant, at: time)
    }

    /// `intern` with the id's key computed beforehand.
    func intern(_ id: UnsafeBufferPointer<UInt8>, key: Key, variant: Int16, at time: Int64) -> (slot: Int, isNew: Bool) {
        let key0 = key.key0, key1 = key.key1, hash = key.hash
        let length = UInt32(truncatingIfNeeded: id.count)
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot.entry == 0 {
                slots[position] = Slot(key0: key0, key1: key1, first: time, hash: hash, length: length, entry: UInt32(count + 1), variant: variant)
                break
            }
            if slot.hash == hash, slot.length == length, slot.key0 == key0, slot.key1 == key1,
               id.count <= Self.inline || equalsArena(Int(slot.entry) - 1, id) {
                return (position, false)
            }
            position = (position + 1) & mask
        }
        count += 1
        arena.append(contentsOf: id)
        offsets.append(arena.count)
        if count * 2 > slots.count {
            grow()
            return (find(id) ?? 0, true)
        }
        return (position, true)
    }

    /// The slot of `id`, or nil when it was never interned (slots move when the table grows).
    func find(_ id: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Key(id)
        let key0 = key.key0, key1 = key.key1, hash = key.hash
        let length = UInt32(truncatingIfNeeded: id.count)
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot.entry == 0 { return nil }
            if slot.hash == hash, slot.length == length, slot.key0 == key0, slot.key1 == key1,
               id.count <= Self.inline || equalsArena(Int(slot.entry) - 1, id) {
                return position
            }
            position = (position + 1) & mask
        }
    }

    /// The slot of a Swift string id, or nil.
    func find(_ id: String) -> Int? {
        var copy = id
        return copy.withUTF8 { find($0) }
    }

    /// Reads the first slot `key` would probe, so that it is in the cache when the id is interned a few rows later.
    func touch(_ key: Key) {
        touched &+= slots[Int(key.hash) & mask].entry
    }

    /// Reads the slot `slot` (as `touch`).
    func touch(slot: Int) {
        touched &+= slots[slot].entry
    }

    /// The dense index (0..<count) of the subject in `slot`.
    func index(at slot: Int) -> Int { Int(slots[slot].entry) - 1 }

    /// The first exposure of the subject in `slot`.
    func firstExposure(at slot: Int) -> Int64 { slots[slot].first }

    /// The variant index (or marker) of the subject in `slot`.
    func variant(at slot: Int) -> Int16 { slots[slot].variant }

    /// Records an exposure at `time` to `variant` of the subject in `slot`; returns the variant it had.
    func expose(slot: Int, variant: Int16, at time: Int64, marker: Int16) -> Int16 {
        let current = slots[slot].variant
        if time < slots[slot].first { slots[slot].first = time }
        if current != variant, current >= 0 { slots[slot].variant = marker }
        return current
    }

    /// Sets the variant (marker) of the subject in `slot`.
    func setVariant(_ variant: Int16, at slot: Int) { slots[slot].variant = variant }

    /// Calls `body` with every subject's dense index and variant (in slot order).
    func forEachSubject(_ body: (_ index: Int, _ variant: Int16) -> Void) {
        for slot in slots where slot.entry != 0 { body(Int(slot.entry) - 1, slot.variant) }
    }

    /// The id at `index`, as text.
    func id(at index: Int) -> String {
        String(decoding: arena[offsets[index]..<offsets[index + 1]], as: UTF8.self)
    }

    private func equalsArena(_ index: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[index], length = offsets[index + 1] - start
        guard length == id.count else { return false }
        return arena.withUnsafeBufferPointer { arena in
            guard let base = arena.baseAddress, let other = id.baseAddress else { return length == 0 }
            return memcmp(base + start, other, length) == 0
        }
    }

    private func grow() {
        let size = slots.count * 2
        let fresh = UnsafeMutableBufferPointer<Slot>.allocate(capacity: size)
        fresh.initialize(repeating: Slot())
        let newMask = size - 1
        for slot in slots where slot.entry != 0 {
            var position = Int(slot.hash) & newMask
            while fresh[position].entry != 0 { position = (position + 1) & newMask }
            fresh[position] = slot
        }
        slots.deallocate()
        slots = fresh
        mask = newMask
    }

    /// The first 16 bytes of `id` as two words (zero-padded).
    fileprivate static func words(_ id: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard let base = id.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        let n = id.count
        if n >= 16 { return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: n)) }
        return words
    }

    /// A 32-bit hash: the two words mixed (and, past 16 bytes, the rest of the bytes).
    fileprivate static func hash(_ id: UnsafeBufferPointer<UInt8>, _ key0: UInt64, _ key1: UInt64) -> UInt32 {
        var h = mix(key0 ^ 0x9E37_79B9_7F4A_7C15 ^ UInt64(id.count))
        h = mix(h ^ key1)
        if id.count > inline, let base = id.baseAddress {
            var index = inline
            let raw = UnsafeRawPointer(base)
            while index + 8 <= id.count {
                h = mix(h ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < id.count {
                tail |= UInt64(base[index]) << shift
                shift += 8
                index += 1
            }
            h = mix(h ^ tail)
        }
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 31)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }
}
