#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore

/// Reads a file line by line in 1 MiB chunks with read(2); a line is lent as bytes, never copied to a String.
///
/// Only the current chunk (and a line that straddles two chunks) is in memory, and a line longer
/// than `maxLineBytes` is refused, so an endless file without a newline cannot grow memory. Only
/// regular files are read: the file is opened non-blocking and anything else (a FIFO, a device) is
/// refused before a byte is read, so nothing blocks. Line endings `\n` and `\r\n` are both accepted;
/// the bytes handed out exclude them.
struct LineReader {
    static let chunkSize = 1 << 20
    /// The longest line read (16 MiB); an event row is a few hundred bytes.
    static let maxLineBytes = 16 << 20

    let path: String

    /// Calls `body` with each line and its 1-based number; stops early when `body` returns false.
    /// `progress`, when given, is checked for cancellation after every chunk (by bytes, not rows).
    /// Returns the number of bytes read.
    ///
    /// A last line without a newline goes to `unterminated` instead (a logger may be writing it).
    @discardableResult
    func forEachLine(progress: ReadProgress? = nil,
                     _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool,
                     unterminated: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws(EventError) -> Int {
        let descriptor = try EventFiles.openRegular(path)
        defer { EventFiles.closeLog(descriptor) }
        let capacity = Self.chunkSize
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        var lineNumber = 0
        var total = 0
        do {
            while true {
                if progress?.isCancelled == true { throw EventError.cancelled }
                let count = try EventFiles.readChunk(descriptor, into: buffer, capacity: capacity, path: path)
                if count == 0 { break }
                total += count
                var start = 0
                while start < count {
                    guard let newline = memchr(buffer + start, 0x0A, count - start) else {
                        guard carry.count + (count - start) <= Self.maxLineBytes else { throw tooLong(lineNumber + 1) }
                        carry.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: count - start))
                        break
                    }
                    let end = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    lineNumber += 1
                    guard carry.count + (end - start) <= Self.maxLineBytes else { throw tooLong(lineNumber) }
                    let keepGoing: Bool
                    if carry.isEmpty {
                        keepGoing = try body(Self.trimmed(UnsafeBufferPointer(start: buffer + start, count: end - start)), lineNumber)
                    } else {
                        carry.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: end - start))
                        keepGoing = try carry.withUnsafeBufferPointer { try body(Self.trimmed($0), lineNumber) }
                        carry.removeAll(keepingCapacity: true)
                    }
                    if !keepGoing { return total }
                    start = end + 1
                }
            }
            if !carry.isEmpty {
                lineNumber += 1
                try carry.withUnsafeBufferPointer { try unterminated(Self.trimmed($0), lineNumber) }
            }
        } catch let error as EventError {
            throw error
        } catch {
            throw .unreadable(file: path, reason: "\(error)")
        }
        return total
    }

    /// Calls `body` with every line, the last one too whether or not a newline ends it.
    @discardableResult
    func forEachLine(progress: ReadProgress? = nil, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool) throws(EventError) -> Int {
        try forEachLine(progress: progress, body, unterminated: { line, number in _ = try body(line, number) })
    }

    /// Throws what reading would: the file is missing, unreadable or not a regular file.
    func check() throws(EventError) { EventFiles.closeLog(try EventFiles.openRegular(path)) }

    private func tooLong(_ line: Int) -> EventError { Self.tooLong(path, line) }

    /// The error for line `line` of `path` longer than `maxLineBytes`.
    static func tooLong(_ path: String, _ line: Int) -> EventError {
        .malformed(file: path, line: line, field: nil, reason: "the line is longer than \(Self.maxLineBytes >> 20) MiB (one event a line)")
    }

    static func trimmed(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let last = line.last, last == 0x0D, let base = line.baseAddress else { return line }
        return UnsafeBufferPointer(start: base, count: line.count - 1)
    }
}
