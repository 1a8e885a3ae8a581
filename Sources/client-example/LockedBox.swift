import Foundation

/// A value behind a lock that is its only door: every read and write goes through `withLock`.
///
/// `@unchecked Sendable`: `value` is private and touched only while `lock` is held.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held; what it returns.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now.
    var current: Value { withLock { $0 } }
}
