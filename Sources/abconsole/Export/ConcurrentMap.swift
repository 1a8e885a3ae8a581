import Foundation

/// Mapping on every core, for the exports' encoder calls (each makes its own encoder).
enum ConcurrentMap {
    /// `transform` of `0..<count`, in index order; the first error thrown is thrown.
    static func map<Value>(_ count: Int, _ transform: (Int) throws -> Value) throws -> [Value] {
        let results = Results<Value>(count)
        withoutActuallyEscaping(transform) { transform in
            let shared = Results<Value>.Shared(transform)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                do { results.set(index, .success(try shared.transform(index))) } catch { results.set(index, .failure(error)) }
            }
        }
        return try results.values()
    }

    /// The results as they arrive from the threads.
    private final class Results<Value>: @unchecked Sendable {
        private var slots: [Result<Value, any Error>?]
        private let lock = NSLock()

        init(_ count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ result: Result<Value, any Error>) {
            lock.lock()
            slots[index] = result
            lock.unlock()
        }

        func values() throws -> [Value] { try slots.map { try ($0 ?? .failure(ExportPiecesError.unexpectedEncoding)).get() } }

        /// The transform, handed to Dispatch's threads (each index is transformed once).
        final class Shared: @unchecked Sendable {
            let transform: (Int) throws -> Value
            init(_ transform: @escaping (Int) throws -> Value) { self.transform = transform }
        }
    }
}
