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
        let hashed = experiments.indices.filter { experiments[$0].fixedIndex < 0 }
        var padded = hashed
        while padded.count % 4 != 0 { padded.append(hashed[hashed.count - 1]) }
        self.hashed = padded
        salts = stride(from: 0, to: padded.count, by: 4).map { start in
            SIMD4((0..<4).map { experiments[padded[start + $0]].bucketer.saltState.value })
        }
    }

    /// Writes the variant index of each experiment for the subject whose UTF-8 bytes are `id`
    /// (used as the id of every experiment, whatever its type) into `indices[0..<experiments.count]`.
    ///
    /// - Precondition: `indices` has room for `experiments.count` answers.
    public func variantIndices(forUTF8 id: UnsafeBufferPointer<UInt8>, into indices: UnsafeMutablePointer<Int32>) {
        experiments.withUnsafeBufferPointer { experiments in
            for index in experiments.indices where experiments[index].fixedIndex >= 0 {
                indices[index] = Int32(truncatingIfNeeded: experiments[index].fixedIndex)
            }
            hashed.withUnsafeBufferPointer { hashed in
                for group in salts.indices {
                    let hashes = FNVLanes.hash(salts: salts[group], id)
                    for lane in 0..<4 {
                        let position = hashed[group * 4 + lane]
                        indices[position] = Int32(truncatingIfNeeded: experiments[position].answer(firstHash: hashes[lane]) {
                            String(validating: id, as: UTF8.self)
                        })
                    }
                }
            }
        }
    }

    /// The variant index of each experiment for the subject id `id` (as its every id).
    public func variantIndices(for id: String, into indices: UnsafeMutablePointer<Int32>) {
        var id = id
        id.withUTF8 { variantIndices(forUTF8: $0, into: indices) }
    }
}
