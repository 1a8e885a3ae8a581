import Foundation

/// `serve --access-log FILE`: one line per request, appended:
/// `TIME PEER NAME METHOD PATH STATUS DURATIONms`, NAME being the token's name (`-` without one).
package final class AccessLog: Sendable {
    private let handle: LockedValue<FileHandle>

    /// Opens `path` for appending, creating it when missing; nil with why when it cannot be.
    package static func open(_ path: String) -> Result<AccessLog, AccessLogProblem> {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                return .failure(AccessLogProblem(message: "cannot create the access log \(path); check that its directory exists and is writable"))
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            return .failure(AccessLogProblem(message: "cannot open the access log \(path) for writing; check its permissions"))
        }
        handle.seekToEndOfFile()
        return .success(AccessLog(handle))
    }

    private init(_ handle: FileHandle) { self.handle = LockedValue(handle) }

    /// Appends the line for one answered request.
    func record(at time: Date, peer: String, tokenName: String?, method: String, path: String, status: Int, seconds: Double) {
        let fields = [AccessLog.timestamp(time), peer, tokenName ?? "-", method, path, String(status), String(format: "%.3fms", seconds * 1000)]
        let line = Data((fields.map(AccessLog.printable).joined(separator: " ") + "\n").utf8)
        handle.withLock { try? $0.write(contentsOf: line) }
    }

    /// `2026-11-28T02:40:00.123Z`.
    static func timestamp(_ time: Date) -> String {
        var formatted = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        formatted.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return time.formatted(formatted)
    }

    /// `text` with spaces, control and non-ASCII bytes written as `%XX`, so a field is one word.
    static func printable(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%") { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { out += String(format: "%%%02X", byte) }
        }
        return out.isEmpty ? "-" : out
    }
}

/// Why the access log cannot be written, in one sentence.
package struct AccessLogProblem: Error, Equatable {
    package let message: String
}
