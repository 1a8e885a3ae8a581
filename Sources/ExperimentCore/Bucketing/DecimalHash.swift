/// The second step of SPEC §2, `fnv1a32(decimal(n)) mod 10000`, with the leading digits read from a table.
///
/// A 32-bit value of seven or more digits is split as `top · 10⁶ + bottom`: the FNV-1a state after
/// the digits of `top` (at most 4294) comes from a table, and only the six zero-padded digits of
/// `bottom` are hashed, three at a time from a table of digit triples. That is six multiplies in the
/// dependency chain instead of ten, and no division loop. Values under 10⁶ take the plain path.
/// `@unchecked Sendable`: `table` is written once, in `init`, and only read after.
@usableFromInline
package struct DecimalHash: @unchecked Sendable {
    /// Entries `0..<topCount`: the FNV-1a state after the digits of the index. Then 1000 entries: the
    /// three ASCII digits of `000`–`999`, first digit in the low byte. Immutable once built.
    @usableFromInline let table: UnsafePointer<UInt32>

    @usableFromInline static let topCount = 4295
    @usableFromInline static let split: UInt32 = 1_000_000

    /// The process-wide table (built once, never freed: 21 KB).
    @usableFromInline package static let shared = DecimalHash()

    private init() {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: DecimalHash.topCount + 1000)
        for top in 0..<DecimalHash.topCount {
            var fnv = FNV1a()
            for digit in String(top).utf8 { fnv.add(digit) }
            table[top] = fnv.value
        }
        for triple in 0..<1000 {
            let digits = [triple / 100, triple / 10 % 10, triple % 10].map { UInt32($0) + 48 }
            table[DecimalHash.topCount + triple] = digits[0] | digits[1] << 8 | digits[2] << 16
        }
        self.table = UnsafePointer(table)
    }

    /// FNV-1a of the unpadded decimal digits of `value`; equal to `Bucketer.rehashDecimal(value)`.
    @inlinable @inline(__always)
    package func rehash(_ value: UInt32) -> UInt32 {
        guard value >= DecimalHash.split else { return Bucketer.rehashDecimal(value) }
        let top = value / DecimalHash.split
        let bottom = value &- top &* DecimalHash.split
        let high = bottom / 1000
        let low = bottom &- high &* 1000
        let first = table[DecimalHash.topCount &+ Int(high)]
        let second = table[DecimalHash.topCount &+ Int(low)]
        let prime = FNV1a.prime
        var hash = table[Int(top)]
        hash = (hash ^ (first & 0xFF)) &* prime
        hash = (hash ^ (first >> 8 & 0xFF)) &* prime
        hash = (hash ^ (first >> 16)) &* prime
        hash = (hash ^ (second & 0xFF)) &* prime
        hash = (hash ^ (second >> 8 & 0xFF)) &* prime
        hash = (hash ^ (second >> 16)) &* prime
        return hash
    }

    /// The bucket in 0..<10000 of a subject whose first hash, `fnv1a32(salt + subject)`, is `firstHash`.
    @inlinable @inline(__always)
    package func bucket(firstHash: UInt32) -> Int {
        Int(rehash(firstHash) % UInt32(Weight.bucketCount))
    }
}
