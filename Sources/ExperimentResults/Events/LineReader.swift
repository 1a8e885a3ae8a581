#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file line by line in 1 MiB chunks with read(2); a line is lent as bytes, never copied to a String.
///
/// Only the current chunk (and a line that straddles two chunks) is in memory. Line endings `\n`
/// and `\r\n` are both accepted; the bytes handed out exclude them.
struct LineReader {
    static let chunkSize = 1 << 20

    let path: String

    /// Calls `body` with each line and its 1-based number; stops early when `body` returns false.
    /// Returns the number of bytes read.
    ///
    /// A last line without a newline goes to `unterminated` instead (a logger may be writing it).
    @discardableResult
    func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool,
                     unterminated: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws(EventError) -> Int {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing(file: path) }
            throw .unreadable(file: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        let capacity = Self.chunkSize
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        var lineNumber = 0
        var total = 0
        do {
            while true {
                let count = read(descriptor, buffer, capacity)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw EventError.unreadable(file: path, reason: String(cString: strerror(errno)))
                }
                if count == 0 { break }
                total += count
                var start = 0
                while start < count {
                    guard let newline = memchr(buffer + start, 0x0A, count - start) else {
                        carry.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: count - start))
                        break
                    }
                    let end = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    lineNumber += 1
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

    /// The size of the file in bytes, or nil when it cannot be read.
    func size() -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let last = line.last, last == 0x0D, let base = line.baseAddress else { return line }
        return UnsafeBufferPointer(start: base, count: line.count - 1)
    }
}
