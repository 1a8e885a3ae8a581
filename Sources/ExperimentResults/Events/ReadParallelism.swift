import Foundation

/// How many threads read an event log and how many bytes each takes at a time.
///
/// The default uses every active core; the environment variable `ABCONSOLE_THREADS` overrides the
/// count (`ABCONSOLE_THREADS=1` reads on one thread, the reference the parallel reading is checked
/// against) and `ABCONSOLE_READ_CHUNK` the piece size in bytes (tests force tiny pieces, so rows
/// meet many piece boundaries). Whatever the setting, the analysis is the same, byte for byte.
public struct ReadParallelism: Equatable, Sendable {
    /// Threads parsing at once (1: the single-threaded reader).
    public var threads: Int
    /// The bytes of one piece a thread parses in one go (whole lines; a longer line makes its piece longer).
    public var pieceBytes: Int

    public init(threads: Int, pieceBytes: Int = 1 << 20) {
        self.threads = max(1, threads)
        self.pieceBytes = max(1, pieceBytes)
    }

    /// One thread per active core, or what `ABCONSOLE_THREADS` / `ABCONSOLE_READ_CHUNK` say.
    public static var `default`: ReadParallelism {
        let environment = ProcessInfo.processInfo.environment
        let threads = environment["ABCONSOLE_THREADS"].flatMap { Int($0) }.map { min(max($0, 1), 256) }
            ?? ProcessInfo.processInfo.activeProcessorCount
        let piece = environment["ABCONSOLE_READ_CHUNK"].flatMap { Int($0) }.map { min(max($0, 1), 1 << 26) } ?? 1 << 20
        return ReadParallelism(threads: threads, pieceBytes: piece)
    }
}
