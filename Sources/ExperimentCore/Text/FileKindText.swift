#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What a file is when it is not a regular file, in words (`a directory`, `a FIFO (named pipe)`):
/// one wording for the store, the event logs and the client's snapshots.
package enum FileKindText {
    /// The kind of a file of `mode` when it is not a regular file; nil for a regular file.
    package static func irregular(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
