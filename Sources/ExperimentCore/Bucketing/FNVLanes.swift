/// Several FNV-1a chains advanced in one loop, so that independent subjects (or salts) are hashed
/// side by side.
///
/// One FNV-1a chain is serial: each byte costs a dependent xor and multiply (about four cycles).
/// The processor overlaps independent chains, but its one integer multiplier takes a multiply per
/// cycle, so four chains in general registers already reach about a byte per cycle. `hash8` adds
/// four more chains in the 64-bit lanes of two SSE2/NEON vectors, whose multiplier is a different
/// unit: a lane keeps its 32-bit state in its low half and the widening 32×32-bit multiply
/// (`pmuludq`) reads only that half, so the high half may hold garbage and needs no clearing. The
/// vector chains read eight (then four) bytes of each subject at once and take them a byte at a
/// time from the word. Every chain computes exactly `FNV1a.hash(continuing:_:)`.
enum FNVLanes {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Four chains from four states over the same bytes (one id, four experiments).
    @inline(__always)
    static func hash(salts: SIMD4<UInt32>, _ bytes: Bytes) -> SIMD4<UInt32> {
        let prime = FNV1a.prime
        var h0 = salts[0], h1 = salts[1], h2 = salts[2], h3 = salts[3]
        for byte in bytes {
            let value = UInt32(byte)
            h0 = (h0 ^ value) &* prime
            h1 = (h1 ^ value) &* prime
            h2 = (h2 ^ value) &* prime
            h3 = (h3 ^ value) &* prime
        }
        return SIMD4(h0, h1, h2, h3)
    }

    /// `fnv1a32` continued from `salt` over each of eight byte strings (any lengths): `a`–`d` in
    /// general registers, `e`–`h` in vector lanes.
    @inline(__always)
    static func hash8(salt: UInt32, _ a: Bytes, _ b: Bytes, _ c: Bytes, _ d: Bytes,
                      _ e: Bytes, _ f: Bytes, _ g: Bytes, _ h: Bytes) -> (SIMD4<UInt32>, SIMD4<UInt32>) {
        let prime = FNV1a.prime
        let shared = min(min(min(a.count, b.count), min(c.count, d.count)), min(min(e.count, f.count), min(g.count, h.count)))
        var h0 = salt, h1 = salt, h2 = salt, h3 = salt
        var v0 = SIMD2<UInt64>(repeating: UInt64(salt)), v1 = v0
        var i = 0
        if shared > 0, let pa = a.baseAddress, let pb = b.baseAddress, let pc = c.baseAddress, let pd = d.baseAddress,
           let pe = e.baseAddress, let pf = f.baseAddress, let pg = g.baseAddress, let ph = h.baseAddress {
            let vectorPrime = SIMD2<UInt64>(repeating: UInt64(prime))
            let low32 = SIMD2<UInt64>(repeating: 0xFFFF_FFFF), low8 = SIMD2<UInt64>(repeating: 0xFF)
            let re = UnsafeRawPointer(pe), rf = UnsafeRawPointer(pf), rg = UnsafeRawPointer(pg), rh = UnsafeRawPointer(ph)
            /// `count` bytes of every chain, the vector chains taking theirs from the words `w0` and `w1`.
            @inline(__always)
            func steps(_ count: Int, _ w0: SIMD2<UInt64>, _ w1: SIMD2<UInt64>) {
                var w0 = w0, w1 = w1
                for k in 0..<count {
                    h0 = (h0 ^ UInt32(pa[i &+ k])) &* prime
                    h1 = (h1 ^ UInt32(pb[i &+ k])) &* prime
                    h2 = (h2 ^ UInt32(pc[i &+ k])) &* prime
                    h3 = (h3 ^ UInt32(pd[i &+ k])) &* prime
                    v0 = ((v0 ^ (w0 & low8)) & low32) &* vectorPrime
                    v1 = ((v1 ^ (w1 & low8)) & low32) &* vectorPrime
                    w0 &>>= 8
                    w1 &>>= 8
                }
                i &+= count
            }
            // Little-endian words, so that the byte first in memory is the low byte.
            func word8(_ pointer: UnsafeRawPointer) -> UInt64 {
                UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            }
            func word4(_ pointer: UnsafeRawPointer) -> UInt64 {
                UInt64(UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
            }
            while i &+ 8 <= shared {
                steps(8, SIMD2(word8(re), word8(rf)), SIMD2(word8(rg), word8(rh)))
            }
            if i &+ 4 <= shared {
                steps(4, SIMD2(word4(re), word4(rf)), SIMD2(word4(rg), word4(rh)))
            }
            while i < shared {
                steps(1, SIMD2(UInt64(pe[i]), UInt64(pf[i])), SIMD2(UInt64(pg[i]), UInt64(ph[i])))
            }
        }
        let scalar = SIMD4(FNV1a.hash(continuing: h0, Bytes(rebasing: a[i...])), FNV1a.hash(continuing: h1, Bytes(rebasing: b[i...])),
                           FNV1a.hash(continuing: h2, Bytes(rebasing: c[i...])), FNV1a.hash(continuing: h3, Bytes(rebasing: d[i...])))
        let vector = SIMD4(FNV1a.hash(continuing: UInt32(truncatingIfNeeded: v0[0]), Bytes(rebasing: e[i...])),
                           FNV1a.hash(continuing: UInt32(truncatingIfNeeded: v0[1]), Bytes(rebasing: f[i...])),
                           FNV1a.hash(continuing: UInt32(truncatingIfNeeded: v1[0]), Bytes(rebasing: g[i...])),
                           FNV1a.hash(continuing: UInt32(truncatingIfNeeded: v1[1]), Bytes(rebasing: h[i...])))
        return (scalar, vector)
    }
}
