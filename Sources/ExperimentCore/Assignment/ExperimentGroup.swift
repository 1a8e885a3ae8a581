/// Several compiled experiments answering together, one subject id at a time: the id's bytes are
/// read once and hashed under four salts side by side (what a request for many experiments, or a
/// batch `assign`, needs).
public struct ExperimentGroup: Sendable {
    /// The experiments, in the order answers are written.
    public let experiments: [CompiledExperiment]
    /// Positions (in `experiments`) of those whose answer depends on the subject, four per lane group;
    /// the last group is padded by repeating its last position.
    private let hashed: [Int]
    private let salts: [SIMD4<UInt32>]

    public init(_ experiments: [CompiledExperiment]) {
        self.experiments = experiments
        let hashed = experiments.indices.filter { experiments[$0].hot.fixedIndex < 0 }
        var padded = hashed
        while padded.count % 4 != 0 { padded.append(hashed[hashed.count - 1]) }
        self.hashed = padded
        salts = stride(from: 0, to: padded.count, by: 4).map { start in
            SIMD4((0..<4).map { experiments[padded[start + $0]].hot.bucketer.saltState.value })
        }
    }

    /// Writes the variant index of each experiment for the subject whose UTF-8 bytes are `id`
    /// (used as the id of every experiment, whatever its type) into `indices[0..<experiments.count]`.
    ///
    /// - Precondition: `indices` has room for `experiments.count` answers.
    package func variantIndices(forUTF8 id: UnsafeBufferPointer<UInt8>, into indices: UnsafeMutablePointer<Int32>) {
        guard !id.isEmpty else { return answerWithoutSubject(at: experiments.indices.map(Int32.init), into: indices) }
        experiments.withUnsafeBufferPointer { experiments in
            for index in experiments.indices where experiments[index].hot.fixedIndex >= 0 {
                indices[index] = Int32(truncatingIfNeeded: experiments[index].hot.fixedIndex)
            }
            hashed.withUnsafeBufferPointer { hashed in
                for group in salts.indices {
                    let hashes = FNVLanes.hash(salts: salts[group], id)
                    for lane in 0..<4 {
                        let position = hashed[group * 4 + lane]
                        indices[position] = Int32(truncatingIfNeeded: ExperimentGroup.answer(experiments, position, hashes[lane]) {
                            ValidUTF8.string(id)
                        })
                    }
                }
            }
        }
    }

    /// The answer of the experiment at `position` for a present subject with this first hash,
    /// reading the experiment in place; `id` is built only when the filter says "maybe".
    @inline(__always)
    static func answer(_ experiments: UnsafeBufferPointer<CompiledExperiment>, _ position: Int, _ firstHash: UInt32, id: () -> String?) -> Int {
        experiments[position].hot.decide(hasSubject: true, firstHash: { firstHash },
                                         listed: { id().flatMap { experiments[position].storage.whitelistedIndex($0) } },
                                         owner: { experiments[position].owner(of: $0) }).index
    }

    /// The variant index of the experiment at `position` for the subject id `id` (of that
    /// experiment's type; nil when the query lacks it): `experiments[position].variantIndex(forID:)`
    /// without copying the experiment out of the group.
    public func variantIndex(at position: Int, forID id: String?) -> Int {
        experiments.withUnsafeBufferPointer { $0[position].variantIndex(forID: id) }
    }

    /// One request's answers: the variant index of each experiment at `positions` for the subject
    /// id `id` (used as the id of every one of them), into `indices[0..<positions.count]`.
    ///
    /// The id is hashed under four salts side by side and the whitelist filters of a request are
    /// read together, so their cache misses overlap instead of adding up.
    package func variantIndices(forID id: String, at positions: UnsafeBufferPointer<Int32>, into indices: UnsafeMutablePointer<Int32>) {
        guard !id.isEmpty else { return answerWithoutSubject(at: Array(positions), into: indices) }
        let hashed: Void? = id.utf8.withContiguousStorageIfAvailable { bytes in
            experiments.withUnsafeBufferPointer { experiments in
                var start = 0
                while start < positions.count {
                    let count = Swift.min(4, positions.count - start)
                    var lanes = SIMD4<Int32>(repeating: positions[start])
                    for lane in 0..<count { lanes[lane] = positions[start + lane] }
                    let salts = SIMD4(experiments[Int(lanes[0])].hot.bucketer.saltState.value, experiments[Int(lanes[1])].hot.bucketer.saltState.value,
                                      experiments[Int(lanes[2])].hot.bucketer.saltState.value, experiments[Int(lanes[3])].hot.bucketer.saltState.value)
                    let hashes = FNVLanes.hash(salts: salts, bytes)
                    for lane in 0..<count {
                        let position = Int(lanes[lane])
                        indices[start + lane] = Int32(truncatingIfNeeded: ExperimentGroup.answer(experiments, position, hashes[lane]) { id })
                    }
                    start += 4
                }
            }
        }
        if hashed == nil {
            for (offset, position) in positions.enumerated() {
                indices[offset] = Int32(truncatingIfNeeded: experiments[Int(position)].variantIndex(forID: id))
            }
        }
    }

    /// What each experiment at `positions` serves when the query has no subject id (an empty id is none).
    private func answerWithoutSubject(at positions: [Int32], into indices: UnsafeMutablePointer<Int32>) {
        for (offset, position) in positions.enumerated() {
            indices[offset] = Int32(truncatingIfNeeded: experiments[Int(position)].variantIndex(forID: nil))
        }
    }

    /// The variant index of each experiment, in order, for the subject id `id` (as its every id).
    public func variantIndices(for id: String) -> [Int32] {
        [Int32](unsafeUninitializedCapacity: experiments.count) { indices, count in
            if let base = indices.baseAddress { variantIndices(for: id, into: base) }
            count = experiments.count
        }
    }

    /// The variant index of each experiment for the subject id `id` (as its every id).
    package func variantIndices(for id: String, into indices: UnsafeMutablePointer<Int32>) {
        var id = id
        id.withUTF8 { variantIndices(forUTF8: $0, into: indices) }
    }
}
