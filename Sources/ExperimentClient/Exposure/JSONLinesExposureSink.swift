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
    public init(path: String) throws(ExposureSinkError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExposureSinkError(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    public func record(_ exposure: Exposure) {
        let line = Data((exposure.jsonLine + "\n").utf8)
        lock.withLock {
            do {
                try handle.write(contentsOf: line)
            } catch {
                failureCount += 1
            }
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
