import ExperimentCore
import Foundation

/// Recognising an experiment the writer wrote, so a save can copy its bytes instead of encoding it.
extension StoreWriter {
    /// The byte range of `experiment` (with its indentation) when its head and tail lines are exactly
    /// the writer's, given that its whitelist entries at `entries` already are; nil otherwise (the
    /// entries themselves may have been left out of `experiment`, see `StoreReader.reading`).
    static func writtenSpan(of experiment: Experiment, in bytes: UnsafeBufferPointer<UInt8>,
                            object: Range<Int>, entries: Range<Int>) -> Range<Int>? {
        let start = object.lowerBound - 4
        guard start >= 0 else { return nil }
        var dates = StoreWriter.DateCache()
        var head = ByteWriter(capacity: 1_024)
        StoreWriter.appendHead(experiment, to: &head, dates: &dates)
        var tail = ByteWriter(capacity: 128)
        StoreWriter.appendTail(experiment, hasEntries: !entries.isEmpty, to: &tail)
        guard head.matches(UnsafeBufferPointer(rebasing: bytes[start..<entries.lowerBound])),
              tail.matches(UnsafeBufferPointer(rebasing: bytes[entries.upperBound..<object.upperBound])) else { return nil }
        return start..<object.upperBound
    }
}
