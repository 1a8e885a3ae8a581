import Foundation
import ParallelPieces

/// Mapping on every core, for the exports' encoder calls (each makes its own encoder).
enum ConcurrentMap {
    /// `transform` of `0..<count`, in index order; the first error thrown (in index order) is thrown.
    static func map<Value: Sendable>(_ count: Int, _ transform: @Sendable (Int) throws -> Value) throws -> [Value] {
        try ParallelPieces<Value, any Error>.map(count, threads: ProcessInfo.processInfo.activeProcessorCount, parse: transform)
    }
}
