#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import ExperimentCore

/// The one file of ExperimentClient that calls the C file API: the snapshot file and the exposure
/// log are opened, checked, written and closed here, with one set of open flags.
enum ClientFiles {
    /// Read-only, not inherited, and non-blocking: a FIFO or a device named as the snapshot cannot hold the open.
    static let readFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK
    /// Append (one `write` a line), create if missing, not inherited, and non-blocking: a FIFO that
    /// no process reads is refused at once (ENXIO) instead of holding the app.
    static let appendFlags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK

    /// A failed call: the errno and its text.
    struct Failure: Error {
        let code: Int32
        var reason: String { ClientFiles.text(ofErrno: code) }
        /// The path names nothing.
        var isMissing: Bool { code == ENOENT }
        /// A FIFO opened for writing without blocking has no reader.
        var isFIFOWithoutReader: Bool { code == ENXIO }
    }

    /// The system's words for `code` (`No such file or directory`).
    static func text(ofErrno code: Int32) -> String { String(cString: strerror(code)) }

    /// Opens `path` with `flags` (new files get `permissions`).
    static func openDescriptor(_ path: String, flags: Int32, permissions: mode_t = 0) throws(Failure) -> Int32 {
        let descriptor = open(path, flags, permissions)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        return descriptor
    }

    /// The mode (type and permission bits) of the open file `descriptor`.
    static func mode(of descriptor: Int32) throws(Failure) -> mode_t {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(code: errno) }
        return info.st_mode
    }

    /// The mode of what `path` names (after symbolic links), or nil when it cannot be looked at.
    static func mode(atPath path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode
    }

    /// Whether a file of `mode` takes appended lines: a regular file, a FIFO (with a reader, else
    /// the open failed) or a character device (`/dev/null`).
    static func isAppendable(_ mode: mode_t) -> Bool {
        let kind = mode & S_IFMT
        return kind == S_IFREG || kind == S_IFIFO || kind == S_IFCHR
    }

    /// Clears `O_NONBLOCK` on `descriptor`, so writes block as usual after the non-blocking open.
    static func makeBlocking(_ descriptor: Int32) throws(Failure) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw Failure(code: errno) }
    }

    /// Closes `descriptor`.
    static func closeDescriptor(_ descriptor: Int32) {
        close(descriptor)
    }

    /// Writes all of `bytes` to `descriptor`, retrying on EINTR; nil, or why it stopped.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? text(ofErrno: errno) : "nothing was written" }
            written += count
        }
        return nil
    }
}
