/// Many answers at once: the same decisions as `variantIndex(forID:)`, arranged so that several
/// independent FNV chains are in flight together.
///
/// FNV-1a is a serial chain of multiplies (about four cycles a byte for one subject); the processor
/// overlaps independent chains, so the kernels below hash eight subjects side by side
/// (`FNVLanes.hash8`) and then finish each one's decision.
extension CompiledExperiment {
    /// The variant index of each subject id in `ids` (ids of this experiment's type), in order.
    public func variantIndices(forIDs ids: [String]) -> [Int32] {
        [Int32](unsafeUninitializedCapacity: ids.count) { indices, count in
            variantIndices(forIDs: ids, into: indices)
            count = ids.count
        }
    }

    /// The variant index of each subject id in `ids` (ids of this experiment's type), into `indices`.
    ///
    /// - Precondition: `indices.count >= ids.count`.
    package func variantIndices(forIDs ids: [String], into indices: UnsafeMutableBufferPointer<Int32>) {
        precondition(indices.count >= ids.count, "the output holds fewer answers than there are ids")
        if fixedIndex >= 0 {
            indices.initialize(repeating: Int32(fixedIndex))
            return
        }
        let salt = bucketer.saltState.value
        withBucketAnswers(forBatchOf: ids.count) { answers in ids.withUnsafeBufferPointer { ids in
            var index = 0
            while index + 8 <= ids.count {
                let hashed = UTF8Quad.withBytes(of: ids, at: index) { a, b, c, d in
                    UTF8Quad.withBytes(of: ids, at: index + 4) { e, f, g, h in
                        (FNVLanes.hash8(salt: salt, a, b, c, d, e, f, g, h),
                         SIMD8(a.count, b.count, c.count, d.count, e.count, f.count, g.count, h.count))
                    }
                }
                if let (hashes, lengths) = hashed ?? nil {
                    let first = index
                    finish(hashes.0, at: index, into: indices, answers: answers, hasSubject: { lengths[$0 - first] != 0 }) { ids[$0] }
                    finish(hashes.1, at: index + 4, into: indices, answers: answers, hasSubject: { lengths[$0 - first] != 0 }) { ids[$0] }
                } else {
                    for lane in index..<index + 8 { indices[lane] = Int32(truncatingIfNeeded: variantIndex(forID: ids[lane])) }
                }
                index += 8
            }
            while index < ids.count {
                indices[index] = Int32(truncatingIfNeeded: variantIndex(forID: ids[index]))
                index += 1
            }
        } }
    }

    /// The variant index of each subject in `subjects`, into `indices`; eight subjects hashed side by side.
    ///
    /// - Precondition: `indices.count >= subjects.count`.
    package func variantIndices(for subjects: PackedSubjects, into indices: UnsafeMutableBufferPointer<Int32>) {
        precondition(indices.count >= subjects.count, "the output holds fewer answers than there are subjects")
        if fixedIndex >= 0 {
            indices.initialize(repeating: Int32(fixedIndex))
            return
        }
        let salt = bucketer.saltState.value
        withBucketAnswers(forBatchOf: subjects.count) { answers in subjects.bytes.withUnsafeBufferPointer { bytes in
            subjects.ends.withUnsafeBufferPointer { ends in
                let base = bytes.baseAddress
                func id(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                    let start = index == 0 ? 0 : ends[index - 1]
                    return UnsafeBufferPointer(start: base.map { $0 + start }, count: ends[index] - start)
                }
                func text(_ index: Int) -> String? { ValidUTF8.string(id(index)) }
                func hasSubject(_ index: Int) -> Bool { ends[index] != (index == 0 ? 0 : ends[index - 1]) }
                var index = 0
                while index + 8 <= ends.count {
                    let hashes = FNVLanes.hash8(salt: salt, id(index), id(index + 1), id(index + 2), id(index + 3),
                                                id(index + 4), id(index + 5), id(index + 6), id(index + 7))
                    finish(hashes.0, at: index, into: indices, answers: answers, hasSubject: hasSubject, id: text)
                    finish(hashes.1, at: index + 4, into: indices, answers: answers, hasSubject: hasSubject, id: text)
                    index += 8
                }
                while index < ends.count {
                    let decided = hot.decide(hasSubject: hasSubject(index), firstHash: { FNV1a.hash(continuing: salt, id(index)) },
                                             listed: { text(index).flatMap(whitelistedIndex) }, owner: owner(of:))
                    indices[index] = Int32(truncatingIfNeeded: decided.index)
                    index += 1
                }
            }
        } }
    }

    /// Writes the answers of the four subjects `start ..< start + 4`, whose first hashes are `hashes`;
    /// `answers` are the table's answers by bucket (`withBucketAnswers`), if any, `hasSubject(n)` whether subject `n` has a
    /// non-empty id, and `id(n)` gives subject `n` only when the whitelist filter says it may be listed.
    @inline(__always)
    func finish(_ hashes: SIMD4<UInt32>, at start: Int, into indices: UnsafeMutableBufferPointer<Int32>,
                answers: BucketAnswers?, hasSubject: (Int) -> Bool, id: (Int) -> String?) {
        let hot = hot
        if let answers {
            // The four second hashes side by side, then the four table reads.
            let decimal = hot.decimal
            let buckets = SIMD4(decimal.bucket(firstHash: hashes[0]), decimal.bucket(firstHash: hashes[1]),
                                decimal.bucket(firstHash: hashes[2]), decimal.bucket(firstHash: hashes[3]))
            for lane in 0..<4 {
                indices[start + lane] = hasSubject(start + lane) ? Int32(answers.byBucket[buckets[lane]]) : answers.withoutSubject
            }
            return
        }
        for lane in 0..<4 {
            let index = start + lane
            let decided = hot.decide(hasSubject: hasSubject(index), firstHash: { hashes[lane] },
                                     listed: { id(index).flatMap(whitelistedIndex) }, owner: owner(of:))
            indices[index] = Int32(truncatingIfNeeded: decided.index)
        }
    }
}

/// Subject ids packed as UTF-8 bytes one after another: batch input without a `String` per id.
package struct PackedSubjects: Sendable {
    /// Every id's bytes, back to back.
    package private(set) var bytes: [UInt8] = []
    /// The end offset in `bytes` of each id (each starts where the previous one ends).
    package private(set) var ends: [Int] = []

    package init() {}

    /// `ids` packed in order.
    package init(_ ids: some Sequence<String>) {
        for id in ids { append(id) }
    }

    /// Appends one id.
    package mutating func append(_ id: String) {
        bytes.append(contentsOf: id.utf8)
        ends.append(bytes.count)
    }

    /// Appends one id given as UTF-8 bytes.
    package mutating func append(utf8 id: some Collection<UInt8>) {
        bytes.append(contentsOf: id)
        ends.append(bytes.count)
    }

    /// How many ids there are.
    package var count: Int { ends.count }
}
