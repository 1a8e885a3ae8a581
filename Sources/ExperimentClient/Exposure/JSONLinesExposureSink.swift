#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Appends each exposure as one JSON line to a file (created `0644` if missing), ready for
/// `abconsole results --exposures FILE`.
///
/// Each line goes to the file in one `write` on a descriptor opened with `O_APPEND`, so lines
/// from several threads or processes never interleave and each is in the file when `record`
/// returns (no buffering in this process).
public final class JSONLinesExposureSink: ExposureSink, @unchecked Sendable {
    public let path: String
    private let handle: FileHandle
    private let lock = ClientLock()
    private var failureCount = 0

    /// Opens `path` for appending; throws when it cannot be opened or created.
    ///
    /// The open never blocks: a FIFO no process reads is refused at once (it would hold the app
    /// in `init` forever), and so is anything but a regular file, a FIFO with a reader or a
    /// character device (`/dev/null`). Writes then block as usual.
    public init(path: String) throws(ExposureSinkError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw ExposureSinkError(path: path, reason: code == ENXIO ? "it is a FIFO that no process reads" : String(cString: strerror(code)))
        }
        var info = stat()
        let kind = fstat(descriptor, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFCHR else {
            close(descriptor)
            throw ExposureSinkError(path: path, reason: "it is not a regular file")
        }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let code = errno
            close(descriptor)
            throw ExposureSinkError(path: path, reason: String(cString: strerror(code)))
        }
        self.path = path
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    public func record(_ exposure: Exposure) {
        _ = recordReportingFailure(exposure)
    }

    /// Appends the exposure's line; on failure (a full disk, `/dev/full`, a removed file) counts it and says why.
    public func recordReportingFailure(_ exposure: Exposure) -> String? {
        var line = Array((exposure.jsonLine + "\n").utf8)
        let descriptor = handle.fileDescriptor
        return lock.withLock {
            var written = 0
            while written < line.count {
                let count = line.withUnsafeMutableBytes { write(descriptor, $0.baseAddress.map { $0 + written }, $0.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    failureCount += 1
                    return count < 0 ? String(cString: strerror(errno)) : "nothing was written"
                }
                written += count
            }
            return nil
        }
    }

    /// How many exposures could not be written (disk full, file removed…).
    public var failures: Int { lock.withLock { failureCount } }
}

/// Why an exposure file could not be opened.
public struct ExposureSinkError: Error, Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "cannot open the exposure log \(path) for appending: \(reason)" }
}
