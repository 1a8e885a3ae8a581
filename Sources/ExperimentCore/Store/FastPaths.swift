import Foundation

/// The byte-level fast paths a process lets its operations take.
///
/// Chosen once by the process's entry point (`abconsole` reads `ABCONSOLE_PLAIN_MERGE` in `Invocation`)
/// and passed down as a value: a library never reads the environment to pick a path. An operation
/// whose fast path is off, or whose fast path answers "defer", runs its plain path, the one place
/// its rules are written; the fast path varies how an answer is computed, never what it is.
package struct FastPaths: Sendable, Hashable {
    /// An operation with a byte-level fast path beside its plain path.
    package enum Operation: String, CaseIterable, Sendable {
        case read, save, merge, diff, export, scan
    }

    /// The operations whose fast paths may answer.
    package var enabled: Set<Operation>

    package init(enabled: Set<Operation>) {
        self.enabled = enabled
    }

    /// Every fast path on: what a shipping process runs.
    package static let all = FastPaths(enabled: Set(Operation.allCases))

    /// Every fast path off: the plain paths only, the referee the tests compare against.
    package static let plain = FastPaths(enabled: [])

    /// Whether `operation` may take its fast path.
    package func allows(_ operation: Operation) -> Bool { enabled.contains(operation) }

    /// These fast paths with `operation`'s turned off.
    package func without(_ operation: Operation) -> FastPaths {
        var copy = self
        copy.enabled.remove(operation)
        return copy
    }
}

#if DEBUG
/// Debug builds: the fast paths that answered in the code a test runs inside `FastPathTrace.$taken.withValue`.
///
/// Task-local, so tests running side by side count only their own calls; shipping builds count nothing.
package enum FastPathTrace {
    @TaskLocal package static var taken: Tally?

    /// Counts one answer of `operation`'s fast path, when a test is counting.
    package static func note(_ operation: FastPaths.Operation) {
        taken?.add(operation)
    }

    /// How many times each fast path answered.
    package final class Tally: @unchecked Sendable {  // `lock` guards `counts`, its only state
        private let lock = NSLock()
        private var counts: [FastPaths.Operation: Int] = [:]

        package init() {}

        package func add(_ operation: FastPaths.Operation) { lock.withLock { counts[operation, default: 0] += 1 } }

        package func count(_ operation: FastPaths.Operation) -> Int { lock.withLock { counts[operation] ?? 0 } }
    }
}
#endif
