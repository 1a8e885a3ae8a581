import Synchronization

/// Rows read so far and a cancel flag, shared between a reading thread and whoever watches it.
public final class ReadProgress: Sendable {
    private let rowCount = Atomic<Int>(0)
    private let cancelFlag = Atomic<Bool>(false)

    public init() {}

    /// Rows read so far, both logs together.
    public var rows: Int { rowCount.load(ordering: .relaxed) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelFlag.load(ordering: .relaxed) }

    /// Asks the reader to stop at the next checkpoint.
    public func cancel() { cancelFlag.store(true, ordering: .relaxed) }

    func add(rows: Int) { rowCount.add(rows, ordering: .relaxed) }
}
