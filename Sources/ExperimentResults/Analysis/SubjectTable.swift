#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Subject ids interned by their bytes: each distinct id gets a dense index 0, 1, 2, …
///
/// Open addressing with linear probing over one byte arena, so a million ids cost one allocation
/// for their bytes and a few machine words each, and looking one up allocates nothing.
struct SubjectTable {
    private var arena: [UInt8] = []
    private var offsets: [Int] = []
    private var hashes: [UInt32] = []
    /// Slot → subject index + 1 (0 = empty).
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int = 1 << 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        mask = size - 1
        offsets.append(0)
    }

    /// The number of distinct ids.
    var count: Int { hashes.count }

    /// The index of `id`, interning it when new; `isNew` tells which.
    mutating func intern(_ id: UnsafeBufferPointer<UInt8>) -> (index: Int, isNew: Bool) {
        let hash = Self.hash(id)
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            let index = Int(entry) - 1
            if hashes[index] == hash, equals(index, id) { return (index, false) }
            slot = (slot + 1) & mask
        }
        let index = hashes.count
        hashes.append(hash)
        arena.append(contentsOf: id)
        offsets.append(arena.count)
        slots[slot] = Int32(index + 1)
        if hashes.count * 2 > slots.count { grow() }
        return (index, true)
    }

    /// The index of `id`, or nil when it was never interned.
    func index(of id: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(id)
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let index = Int(entry) - 1
            if hashes[index] == hash, equals(index, id) { return index }
            slot = (slot + 1) & mask
        }
    }

    /// The index of a Swift string id, or nil.
    func index(of id: String) -> Int? {
        var copy = id
        return copy.withUTF8 { index(of: $0) }
    }

    /// The id at `index`, as text.
    func id(at index: Int) -> String {
        String(decoding: arena[offsets[index]..<offsets[index + 1]], as: UTF8.self)
    }

    private func equals(_ index: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[index], length = offsets[index + 1] - start
        guard length == id.count else { return false }
        if length == 0 { return true }
        return arena.withUnsafeBufferPointer { arena in
            guard let base = arena.baseAddress, let other = id.baseAddress else { return false }
            return memcmp(base + start, other, length) == 0
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        var fresh = [Int32](repeating: 0, count: size)
        let newMask = size - 1
        for index in hashes.indices {
            var slot = Int(hashes[index]) & newMask
            while fresh[slot] != 0 { slot = (slot + 1) & newMask }
            fresh[slot] = Int32(index + 1)
        }
        slots = fresh
        mask = newMask
    }

    /// A 32-bit hash of the bytes: FNV-1a over 8-byte words, then a murmur finalizer.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        guard let base = bytes.baseAddress else { return UInt32(truncatingIfNeeded: h) }
        var index = 0
        let n = bytes.count
        let raw = UnsafeRawPointer(base)
        while index + 8 <= n {
            h = (h ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x1000_0000_01b3
            h ^= h >> 29
            index += 8
        }
        while index < n {
            h = (h ^ UInt64(base[index])) &* 0x1000_0000_01b3
            index += 1
        }
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return UInt32(truncatingIfNeeded: h)
    }
}
