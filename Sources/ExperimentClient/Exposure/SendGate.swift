import Foundation

/// Lets one task at a time through (an asynchronous mutex): the sink's sends never overlap, so a
/// batch is never sent twice by a flush and the background sender at once.
/// `@unchecked Sendable`: `busy` and `waiting` are touched only under `lock`.
final class SendGate: @unchecked Sendable {
    private let lock = NSLock()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until the gate is free, then holds it.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if busy {
                waiting.append(continuation)
                lock.unlock()
            } else {
                busy = true
                lock.unlock()
                continuation.resume()
            }
        }
    }

    /// Frees the gate, or hands it to the next task waiting.
    func leave() {
        lock.lock()
        guard !waiting.isEmpty else {
            busy = false
            lock.unlock()
            return
        }
        let next = waiting.removeFirst()
        lock.unlock()
        next.resume()
    }
}
