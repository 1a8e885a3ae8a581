import Dispatch
import Foundation

/// Work cut into pieces: parsed by several threads at once, applied one at a time and in order on the calling thread.
///
/// `submit` starts a round of pieces parsing on Dispatch's threads, applies the pieces submitted
/// before them (in index order, on the calling thread) meanwhile, and returns once the new
/// round is parsed; `finish` applies the final one. A parse closure sees its piece's index and what
/// it captures, which the compiler checks is `Sendable`, and returns the piece as a value of its own;
/// `apply`, the only closure that changes the caller's state, never leaves the calling thread. A piece
/// whose parse threw surfaces its error when its turn to be applied comes, after every piece before it.
package struct ParallelPieces<Piece: Sendable, Failure: Error> {
    private var pending: [Result<Piece, Failure>] = []

    package init() {}

    /// Parses pieces `0..<count` on up to `threads` threads while the pieces submitted before them are applied; returns when all are parsed.
    /// When `apply` throws, the round is still parsed to its end (the threads finish) and then the error is thrown.
    package mutating func submit(_ count: Int, threads: Int, parse: @Sendable (Int) throws(Failure) -> Piece,
                                 apply: (Piece) throws(Failure) -> Void) throws(Failure) {
        let slots = Slots<Piece, Failure>(count)
        let workers = max(1, min(threads, count))
        var failure: Failure?
        withoutActuallyEscaping(parse) { parse in
            let group = DispatchGroup()
            if count > 0 {
                DispatchQueue.global().async(group: group) {
                    DispatchQueue.concurrentPerform(iterations: workers) { worker in
                        for index in stride(from: worker, to: count, by: workers) {
                            slots.set(index, Result { () throws(Failure) in try parse(index) })
                        }
                    }
                }
            }
            do throws(Failure) { try applyPending(apply) } catch { failure = error }
            group.wait()
        }
        pending = slots.take()
        if let failure {
            pending = []
            throw failure
        }
    }

    /// Applies the pieces submitted most recently, in order.
    package mutating func finish(apply: (Piece) throws(Failure) -> Void) throws(Failure) {
        defer { pending = [] }
        try applyPending(apply)
    }

    private mutating func applyPending(_ apply: (Piece) throws(Failure) -> Void) throws(Failure) {
        let round = pending
        pending = []
        for result in round { try apply(result.get()) }
    }
}

/// The parsed pieces of one round as the threads hand them in; the lock is the only door to them.
/// `@unchecked Sendable`: `results` is private and touched only while `lock` is held.
private final class Slots<Piece, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Piece, Failure>?]

    init(_ count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Piece, Failure>) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }

    /// Every result (the threads have all finished: each slot is set).
    func take() -> [Result<Piece, Failure>] {
        lock.lock()
        defer { lock.unlock() }
        let taken = results.compactMap { $0 }
        results = []
        return taken
    }
}
