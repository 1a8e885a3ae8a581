import Foundation

/// A mutual-exclusion lock (Foundation's `NSLock`, on every platform).
/// `@unchecked Sendable`: it holds only an `NSLock`, which is made for threads.
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
