import Foundation

/// A mutual-exclusion lock (Foundation's `NSLock`, on every platform).
final class ClientLock: @unchecked Sendable {
    private let lock = NSLock()

    func acquire() { lock.lock() }
    func release() { lock.unlock() }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
