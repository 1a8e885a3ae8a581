/// Many answers at once: the same decisions as `variantIndex(forID:)`, arranged so that several
/// independent FNV chains are in flight together.
///
/// FNV-1a is a serial chain of multiplies (about four cycles a byte for one subject); the processor
/// overlaps independent chains, so the kernels below hash four subjects (or four experiments) side
/// by side over the same loop.
extension CompiledExperiment {
    /// The variant index of each subject id in `ids` (ids of this experiment's type), into `indices`.
    ///
    /// - Precondition: `indices.count >= ids.count`.
    public func variantIndices(forIDs ids: [String], into indices: UnsafeMutableBufferPointer<Int32>) {
        precondition(indices.count >= ids.count, "the output holds fewer answers than there are ids")
        if fixedIndex >= 0 {
            indices.initialize(repeating: Int32(fixedIndex))
            return
        }
        let salt = bucketer.saltState.value
        if isBucketedOnly {
            for index in ids.indices {
                let first = ids[index].utf8.withContiguousStorageIfAvailable { FNV1a.hash(continuing: salt, $0) } ?? bucketer.firstHash(of: ids[index])
                indices[index] = Int32(truncatingIfNeeded: bucketedIndex(firstHash: first))
            }
            return
        }
        for index in ids.indices {
            indices[index] = Int32(truncatingIfNeeded: variantIndex(forID: ids[index]))
        }
    }

    /// The variant index of each subject in `subjects`, into `indices`; four subjects hashed side by side.
    ///
    /// - Precondition: `indices.count >= subjects.count`.
    public func variantIndices(for subjects: PackedSubjects, into indices: UnsafeMutableBufferPointer<Int32>) {
        precondition(indices.count >= subjects.count, "the output holds fewer answers than there are subjects")
        if fixedIndex >= 0 {
            indices.initialize(repeating: Int32(fixedIndex))
            return
        }
        let salt = bucketer.saltState.value
        subjects.bytes.withUnsafeBufferPointer { bytes in
            subjects.ends.withUnsafeBufferPointer { ends in
                let base = bytes.baseAddress
                func id(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                    let start = index == 0 ? 0 : ends[index - 1]
                    return UnsafeBufferPointer(start: base.map { $0 + start }, count: ends[index] - start)
                }
                var index = 0
                let bucketedOnly = isBucketedOnly
                while index + 4 <= ends.count {
                    let hashes = FNVLanes.hash(salt: salt, id(index), id(index + 1), id(index + 2), id(index + 3))
                    if bucketedOnly {
                        let buckets = SIMD4(hot.decimal.bucket(firstHash: hashes[0]), hot.decimal.bucket(firstHash: hashes[1]),
                                            hot.decimal.bucket(firstHash: hashes[2]), hot.decimal.bucket(firstHash: hashes[3]))
                        for lane in 0..<4 {
                            let owner = owner(of: buckets[lane])
                            indices[index + lane] = Int32(truncatingIfNeeded: owner >= 0 ? owner : controlIndex)
                        }
                    } else {
                        for lane in 0..<4 {
                            indices[index + lane] = Int32(truncatingIfNeeded: answer(firstHash: hashes[lane]) { String(validating: id(index + lane), as: UTF8.self) })
                        }
                    }
                    index += 4
                }
                while index < ends.count {
                    let bytes = id(index)
                    indices[index] = Int32(truncatingIfNeeded: answer(firstHash: FNV1a.hash(continuing: salt, bytes)) { String(validating: bytes, as: UTF8.self) })
                    index += 1
                }
            }
        }
    }
}

/// Subject ids packed as UTF-8 bytes one after another: batch input without a `String` per id.
public struct PackedSubjects: Sendable {
    /// Every id's bytes, back to back.
    public private(set) var bytes: [UInt8] = []
    /// The end offset in `bytes` of each id (each starts where the previous one ends).
    public private(set) var ends: [Int] = []

    public init() {}

    /// `ids` packed in order.
    public init(_ ids: some Sequence<String>) {
        for id in ids { append(id) }
    }

    /// Appends one id.
    public mutating func append(_ id: String) {
        bytes.append(contentsOf: id.utf8)
        ends.append(bytes.count)
    }

    /// Appends one id given as UTF-8 bytes.
    public mutating func append(utf8 id: some Collection<UInt8>) {
        bytes.append(contentsOf: id)
        ends.append(bytes.count)
    }

    /// How many ids there are.
    public var count: Int { ends.count }
}

/// Four FNV-1a chains advanced in one loop.
enum FNVLanes {
    /// `fnv1a32` continued from `salt` over each of four byte strings (any lengths).
    @inline(__always)
    static func hash(salt: UInt32, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                     _ c: UnsafeBufferPointer<UInt8>, _ d: UnsafeBufferPointer<UInt8>) -> SIMD4<UInt32> {
        hash(salts: SIMD4(repeating: salt), a, b, c, d)
    }

    /// Four chains from four states over four byte strings.
    @inline(__always)
    static func hash(salts: SIMD4<UInt32>, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                     _ c: UnsafeBufferPointer<UInt8>, _ d: UnsafeBufferPointer<UInt8>) -> SIMD4<UInt32> {
        let prime = FNV1a.prime
        var h0 = salts[0], h1 = salts[1], h2 = salts[2], h3 = salts[3]
        let shared = min(min(a.count, b.count), min(c.count, d.count))
        if shared > 0, let pa = a.baseAddress, let pb = b.baseAddress, let pc = c.baseAddress, let pd = d.baseAddress {
            var i = 0
            while i < shared {
                h0 = (h0 ^ UInt32(pa[i])) &* prime
                h1 = (h1 ^ UInt32(pb[i])) &* prime
                h2 = (h2 ^ UInt32(pc[i])) &* prime
                h3 = (h3 ^ UInt32(pd[i])) &* prime
                i &+= 1
            }
        }
        h0 = FNV1a.hash(continuing: h0, UnsafeBufferPointer(rebasing: a[shared...]))
        h1 = FNV1a.hash(continuing: h1, UnsafeBufferPointer(rebasing: b[shared...]))
        h2 = FNV1a.hash(continuing: h2, UnsafeBufferPointer(rebasing: c[shared...]))
        h3 = FNV1a.hash(continuing: h3, UnsafeBufferPointer(rebasing: d[shared...]))
        return SIMD4(h0, h1, h2, h3)
    }

    /// Four chains from four states over the same bytes (one id, four experiments).
    @inline(__always)
    static func hash(salts: SIMD4<UInt32>, _ bytes: UnsafeBufferPointer<UInt8>) -> SIMD4<UInt32> {
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
}
