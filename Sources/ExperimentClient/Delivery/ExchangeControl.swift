import Foundation

/// The deadline of one exchange and whether its task was cancelled; read by the socket's waits.
final class ExchangeControl: @unchecked Sendable {
    let seconds: TimeInterval
    private let end: UInt64
    private let lock = NSLock()
    private var cancelled = false

    init(seconds: TimeInterval) {
        self.seconds = seconds
        let nanoseconds = seconds.isFinite ? UInt64(max(0, min(seconds, 1e9)) * 1e9) : UInt64.max / 2
        end = DispatchTime.now().uptimeNanoseconds + nanoseconds
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Whole milliseconds until the deadline (rounded up), 0 once it passed.
    var millisecondsLeft: Int {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= end ? 0 : Int((end - now + 999_999) / 1_000_000)
    }

    var secondsLeft: TimeInterval { Double(millisecondsLeft) / 1000 }
}
