#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import ExperimentCore

/// The one file of ExperimentResults that calls the C file API: event logs are opened, checked,
/// read and closed here, with one set of open flags.
enum EventFiles {
    /// Read-only, not inherited, and non-blocking: a FIFO or a device named as a log cannot hold the open.
    static let readFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK

    /// Opens `path` without blocking and checks that it is a regular file.
    static func openRegular(_ path: String) throws(EventError) -> Int32 {
        let descriptor = open(path, readFlags)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing(file: path) }
            throw .unreadable(file: path, reason: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .unreadable(file: path, reason: String(cString: strerror(code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .unreadable(file: path, reason: notRegular(info.st_mode))
        }
        return descriptor
    }

    /// Up to `capacity` bytes of `descriptor` into `buffer`, retrying on EINTR; 0 at the end of the file.
    static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, path: String) throws(EventError) -> Int {
        while true {
            let count = read(descriptor, buffer, capacity)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .unreadable(file: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The size in bytes of the file open as `descriptor`; nil when `fstat` fails.
    static func size(_ descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Closes a descriptor `openRegular` returned.
    static func closeLog(_ descriptor: Int32) {
        close(descriptor)
    }

    /// Why a file of `mode` is not read as an event log.
    static func notRegular(_ mode: mode_t) -> String {
        "it is \(FileKindText.irregular(mode: mode) ?? "not a regular file"), not a regular file (an event log is read from a file)"
    }
}
