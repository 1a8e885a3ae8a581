/// How many threads read an event log and how many bytes each takes at a time.
///
/// The process's entry point chooses it: one thread per active core unless the environment variable
/// `ABCONSOLE_THREADS` says otherwise (`ABCONSOLE_THREADS=1` reads on one thread, the reference the
/// parallel reading is checked against), and `ABCONSOLE_READ_CHUNK` the piece size in bytes (tests
/// force tiny pieces, so rows meet many piece boundaries). Whatever the setting, the analysis is the same, byte for byte.
package struct ReadParallelism: Equatable, Sendable {
    /// Threads parsing at once (1: the single-threaded reader).
    package var threads: Int
    /// The bytes of one piece a thread parses in one go (whole lines; a longer line makes its piece longer).
    package var pieceBytes: Int

    package init(threads: Int, pieceBytes: Int = 1 << 20) {
        self.threads = max(1, threads)
        self.pieceBytes = max(1, pieceBytes)
    }

    /// One thread: the plain reader.
    package static let single = ReadParallelism(threads: 1)

    /// `cores` threads, or what `ABCONSOLE_THREADS` / `ABCONSOLE_READ_CHUNK` in `environment` say.
    package init(environment: [String: String], cores: Int) {
        let threads = environment["ABCONSOLE_THREADS"].flatMap { Int($0) }.map { min(max($0, 1), 256) } ?? cores
        let piece = environment["ABCONSOLE_READ_CHUNK"].flatMap { Int($0) }.map { min(max($0, 1), 1 << 26) } ?? 1 << 20
        self.init(threads: threads, pieceBytes: piece)
    }
}
