import Foundation

/// Appends each exposure as one JSON line to a file (created `0644` if missing), ready for
/// `abconsole results --exposures FILE`.
///
/// Each line goes to the file in one `write` on a descriptor opened with `O_APPEND`, so lines
/// from several threads or processes never interleave and each is in the file when `record`
/// returns (no buffering in this process).
/// `@unchecked Sendable`: `failureCount` is touched only under `lock`; each line is one `write` on an `O_APPEND` descriptor.
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
        let descriptor: Int32
        do {
            descriptor = try ClientFiles.openDescriptor(path, flags: ClientFiles.appendFlags, permissions: 0o644)
        } catch {
            throw ExposureSinkError(path: path, reason: error.isFIFOWithoutReader ? "it is a FIFO that no process reads" : error.reason)
        }
        guard let mode = try? ClientFiles.mode(of: descriptor), ClientFiles.isAppendable(mode) else {
            ClientFiles.closeDescriptor(descriptor)
            throw ExposureSinkError(path: path, reason: "it is not a regular file")
        }
        do {
            try ClientFiles.makeBlocking(descriptor)
        } catch {
            ClientFiles.closeDescriptor(descriptor)
            throw ExposureSinkError(path: path, reason: error.reason)
        }
        self.path = path
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    public func record(_ exposure: Exposure) {
        _ = recordReportingFailure(exposure)
    }

    /// Appends the exposure's line; on failure (a full disk, `/dev/full`, a removed file) counts it and says why.
    public func recordReportingFailure(_ exposure: Exposure) -> String? {
        let line = Array((exposure.jsonLine + "\n").utf8)
        let descriptor = handle.fileDescriptor
        return lock.withLock {
            guard let failure = line.withUnsafeBytes({ ClientFiles.writeAll($0, to: descriptor) }) else { return nil }
            failureCount += 1
            return failure
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
