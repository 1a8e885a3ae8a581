/// The decision table's answer for every bucket, one byte each, for large batches: a table read
/// instead of the branch-free segment count.
extension CompiledExperiment {
    /// The answers of a running experiment nobody is whitelisted in: `DecisionTable` asked once per
    /// segment of buckets and once for a subject without an id.
    struct BucketAnswers {
        /// The variant index served to a subject in each bucket `0..<10000`.
        let byBucket: UnsafePointer<Int8>
        /// The variant index served to a subject without an id.
        let withoutSubject: Int32
    }

    /// Calls `body` with the answers of `BucketAnswers`, or with nil when the table does not apply:
    /// an experiment with a whitelist or not running, a variant index over 127, or a batch of fewer
    /// than 512 subjects, too few to repay filling 10 000 bytes. The bytes live on the stack only
    /// for the call.
    func withBucketAnswers<Result>(forBatchOf count: Int, _ body: (BucketAnswers?) -> Result) -> Result {
        let starts = storage.segmentStarts, owners = storage.segmentOwners
        guard count >= 512, isBucketedOnly, names.count <= 127, !starts.isEmpty else { return body(nil) }
        let hot = hot
        func answer(hasSubject: Bool, owner: Int) -> Int {
            DecisionTable.decide(status: hot.status, winner: hot.winnerIndex, control: hot.controlIndex, hasSubject: hasSubject,
                                 hash: { owner }, whitelisted: { _ in nil }, owner: { $0 }).index
        }
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: Weight.bucketCount) { table in
            guard let base = table.baseAddress else { return body(nil) }
            for segment in starts.indices {
                let end = segment + 1 < starts.count ? starts[segment + 1] : Weight.bucketCount
                let served = Int8(truncatingIfNeeded: answer(hasSubject: true, owner: owners[segment]))
                (base + starts[segment]).initialize(repeating: served, count: end - starts[segment])
            }
            let withoutSubject = Int32(truncatingIfNeeded: answer(hasSubject: false, owner: -1))
            return body(BucketAnswers(byBucket: UnsafePointer(base), withoutSubject: withoutSubject))
        }
    }
}
