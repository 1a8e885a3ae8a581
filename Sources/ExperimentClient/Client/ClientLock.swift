import Foundation

/// A mutual-exclusion lock (Foundation's `NSLock`, on every platform).
@usableFromInline
final class ClientLock: @unchecked Sendable {
    @usableFromInline let lock = NSLock()

    @usableFromInline init() {}

    @inlinable func acquire() { lock.lock() }
    @inlinable func release() { lock.unlock() }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
