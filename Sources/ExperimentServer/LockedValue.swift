import Foundation

/// A value shared across the server's threads, reachable only inside `withLock`: the one door.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held; keep `body` short (no I/O).
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now.
    var current: Value { withLock { $0 } }
}
