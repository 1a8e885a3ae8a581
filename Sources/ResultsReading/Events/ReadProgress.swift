import Foundation

/// Rows read so far and a cancel flag, shared between a reading thread and whoever watches it.
///
/// Guarded by a lock rather than atomics (`Synchronization` needs macOS 15 / iOS 18): the reader
/// touches it once per checkpoint of many rows, so the lock costs nothing measurable.
/// `@unchecked Sendable`: `rowCount` and `cancelFlag` are private and touched only while `lock` is held.
package final class ReadProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var rowCount = 0
    private var cancelFlag = false

    package init() {}

    /// Rows read so far, both logs together.
    package var rows: Int { locked { rowCount } }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { locked { cancelFlag } }

    /// Asks the reader to stop at the next checkpoint.
    package func cancel() { locked { cancelFlag = true } }

    func add(rows: Int) { locked { rowCount += rows } }

    /// `body` under the lock (`NSLock.withLock` needs macOS 14 / iOS 17).
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
