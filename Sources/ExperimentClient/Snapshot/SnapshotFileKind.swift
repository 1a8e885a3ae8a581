#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import ExperimentCore

/// What a path names when it is not a regular file, in words (`a directory`, `a FIFO`).
enum SnapshotFileKind {
    /// The kind of file at `path` when it exists and is not a regular file (after symbolic links); nil otherwise.
    static func irregular(_ path: String) -> String? {
        ClientFiles.mode(atPath: path).flatMap { irregular(mode: $0) }
    }

    /// The kind of a file of `mode` in words when it is not a regular file; nil for a regular file.
    static func irregular(mode: mode_t) -> String? { FileKindText.irregular(mode: mode) }
}
