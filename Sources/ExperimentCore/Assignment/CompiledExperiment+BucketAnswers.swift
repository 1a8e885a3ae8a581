/// The owner of every bucket laid out in one byte each, for large batches: a table read instead of
/// the branch-free segment count.
extension CompiledExperiment {
    /// Calls `body` with the variant index owning each bucket `0..<10000` (-1 where unallocated;
    /// `DecisionTable` serves control there), or with nil when the table does not apply: an experiment with a whitelist or
    /// not running, a variant index over 127, or a batch of fewer than `minimumBatch` subjects, too
    /// few to repay filling 10 000 bytes. The bytes live on the stack only for the call.
    func withBucketAnswers<Result>(forBatchOf count: Int, _ body: (UnsafePointer<Int8>?) -> Result) -> Result {
        let starts = storage.segmentStarts, owners = storage.segmentOwners
        guard count >= 512, isBucketedOnly, names.count <= 127, !starts.isEmpty else { return body(nil) }
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: Weight.bucketCount) { table in
            for segment in starts.indices {
                let end = segment + 1 < starts.count ? starts[segment + 1] : Weight.bucketCount
                let owner = owners[segment]
                table.baseAddress.map { ($0 + starts[segment]).initialize(repeating: Int8(truncatingIfNeeded: owner), count: end - starts[segment]) }
            }
            return body(table.baseAddress.map { UnsafePointer($0) })
        }
    }
}
