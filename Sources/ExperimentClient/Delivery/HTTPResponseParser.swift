/// The status line and headers of an HTTP/1.x answer.
struct HTTPResponseHead: Equatable, Sendable {
    var status: Int
    /// `HTTP/1.0` or `HTTP/1.1`.
    var version: String
    /// The header lines in order, names as sent.
    var headers: [(name: String, value: String)]

    /// The values of the headers named `name` (ignoring case), in order.
    func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The first value of the header named `name`, if any.
    func value(_ name: String) -> String? { values(name).first }

    static func == (left: HTTPResponseHead, right: HTTPResponseHead) -> Bool {
        left.status == right.status && left.version == right.version
            && left.headers.map(\.name) == right.headers.map(\.name) && left.headers.map(\.value) == right.headers.map(\.value)
    }
}

/// Why bytes are no acceptable HTTP/1.x answer; `description` says it in words.
enum HTTPResponseFailure: Error, Equatable, CustomStringConvertible {
    case badStatusLine
    case badHeader
    case headTooLarge(limit: Int)
    case badContentLength
    case unsupportedTransferCoding(String)
    case badChunk
    /// The connection closed before the body's declared end.
    case truncated
    /// The connection closed before the whole head.
    case noAnswer
    case switchingProtocols

    var description: String {
        switch self {
        case .badStatusLine: "its answer does not start with an HTTP/1.x status line"
        case .badHeader: "its answer has a malformed header line"
        case .headTooLarge(let limit): "its answer's headers pass \(limit / 1024) KiB"
        case .badContentLength: "its answer has an invalid or conflicting Content-Length"
        case .unsupportedTransferCoding(let coding): "its answer uses the transfer coding `\(coding)`, which the client does not read"
        case .badChunk: "its answer has a malformed chunk"
        case .truncated: "the connection closed before the end of the body"
        case .noAnswer: "the connection closed before a whole answer"
        case .switchingProtocols: "it answered 101 Switching Protocols to a plain request"
        }
    }
}

/// HTTP/1.x answer parsing, pure and resumable: bytes in as they arrive, the head once whole, and
/// where in each input the body's bytes are (chunked framing removed; content codings left to
/// the caller). Lines end in CRLF or a bare LF; `1xx` interim answers are skipped.
///
/// Feeding the same bytes in any pieces gives the same head, body and failure: the parser keeps
/// only the line it is in the middle of (bounded by `maxHeadBytes` and `maxChunkLine`).
struct HTTPResponseParser {
    /// The status line, headers and trailers together may not pass this.
    static let maxHeadBytes = 64 << 10
    /// A chunk-size line (size and extensions) longer than this is refused.
    static let maxChunkLine = 1024

    private enum Phase: Equatable {
        case head
        case fixed(remaining: Int)
        case untilClose
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case done
    }

    /// Whether the request was `HEAD` (its answer has no body, whatever it declares).
    let isHead: Bool
    private var phase = Phase.head
    private var line: [UInt8] = []
    private var headBytes = 0
    private var statusLine: (status: Int, version: String)?
    private var headers: [(name: String, value: String)] = []
    /// The head of the final (non-`1xx`) answer, once whole.
    private(set) var head: HTTPResponseHead?

    init(isHead: Bool = false) {
        self.isHead = isHead
    }

    /// Whether the whole answer is in (the bytes after it, if any, are ignored).
    var isComplete: Bool { phase == .done }

    /// Reads `input`; returns the ranges of `input` that are body bytes, in order.
    mutating func feed(_ input: UnsafeRawBufferPointer) throws(HTTPResponseFailure) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        let count = input.count
        while index < count {
            switch phase {
            case .done:
                return ranges
            case .fixed(let remaining), .chunkData(let remaining):
                let take = min(remaining, count - index)
                ranges.append(index..<index + take)
                index += take
                let left = remaining - take
                if case .chunkData = phase {
                    phase = left == 0 ? .chunkDataEnd : .chunkData(remaining: left)
                } else {
                    phase = left == 0 ? .done : .fixed(remaining: left)
                }
            case .untilClose:
                ranges.append(index..<count)
                index = count
            case .head, .chunkSize, .chunkDataEnd, .trailers:
                let byte = input[index]
                index += 1
                if byte != 10 {
                    line.append(byte)
                    try checkLineLength()
                    continue
                }
                if line.last == 13 { line.removeLast() }
                let complete = line
                line.removeAll(keepingCapacity: true)
                try endOfLine(complete)
            }
        }
        return ranges
    }

    /// The connection closed: fine when the body runs until the close or the answer is whole.
    mutating func finish() throws(HTTPResponseFailure) {
        switch phase {
        case .done: return
        case .untilClose: phase = .done
        case .head: throw .noAnswer
        default: throw .truncated
        }
    }

    private mutating func checkLineLength() throws(HTTPResponseFailure) {
        switch phase {
        case .head, .trailers:
            headBytes += 1
            if headBytes > Self.maxHeadBytes { throw .headTooLarge(limit: Self.maxHeadBytes) }
        case .chunkSize, .chunkDataEnd:
            if line.count > Self.maxChunkLine { throw .badChunk }
        default: break
        }
    }

    private mutating func endOfLine(_ line: [UInt8]) throws(HTTPResponseFailure) {
        switch phase {
        case .head:
            headBytes += 1
            if headBytes > Self.maxHeadBytes { throw .headTooLarge(limit: Self.maxHeadBytes) }
            if statusLine == nil {
                statusLine = try Self.statusLine(line)
            } else if line.isEmpty {
                try endOfHead()
            } else {
                try addHeader(line)
            }
        case .chunkSize:
            let size = try Self.chunkSize(line)
            phase = size == 0 ? .trailers : .chunkData(remaining: size)
        case .chunkDataEnd:
            guard line.isEmpty else { throw .badChunk }
            phase = .chunkSize
        case .trailers:
            headBytes += 1
            if headBytes > Self.maxHeadBytes { throw .headTooLarge(limit: Self.maxHeadBytes) }
            if line.isEmpty { phase = .done }
        default:
            break
        }
    }

    private mutating func addHeader(_ line: [UInt8]) throws(HTTPResponseFailure) {
        // A folded line (obsolete) continues the previous header's value.
        if line.first == 32 || line.first == 9 {
            guard let last = headers.popLast() else { throw .badHeader }
            headers.append((last.name, (last.value + " " + Self.trimmed(line[...])).trimmingSpaces))
            return
        }
        guard let colon = line.firstIndex(of: 58), colon > 0,
              line[..<colon].allSatisfy(Self.isTokenByte) else { throw .badHeader }
        let name = String(decoding: line[..<colon], as: UTF8.self)
        headers.append((name, Self.trimmed(line[(colon + 1)...])))
    }

    private mutating func endOfHead() throws(HTTPResponseFailure) {
        guard let (status, version) = statusLine else { throw .badStatusLine }
        let found = HTTPResponseHead(status: status, version: version, headers: headers)
        statusLine = nil
        headers = []
        if status == 101 { throw .switchingProtocols }
        // An interim answer: the final one follows (its head counts against the same limit).
        if (100..<200).contains(status) { return }
        head = found
        if isHead || status == 204 || status == 304 {
            phase = .done
            return
        }
        let codings = found.values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        if !codings.isEmpty {
            guard codings == ["chunked"] else {
                throw .unsupportedTransferCoding(codings.filter { $0 != "chunked" }.first ?? codings.joined(separator: ", "))
            }
            phase = .chunkSize
            return
        }
        let lengths = found.values("Content-Length").flatMap { $0.split(separator: ",") }.map(\.trimmingSpaces)
        guard let first = lengths.first else {
            phase = .untilClose
            return
        }
        guard lengths.allSatisfy({ $0 == first }), first.utf8.count <= 18, first.utf8.allSatisfy({ (48...57).contains($0) }),
              let length = Int(first) else { throw .badContentLength }
        phase = length == 0 ? .done : .fixed(remaining: length)
    }

    /// The declared body length of the final answer, when it has one.
    var declaredLength: Int? {
        guard let head, head.values("Transfer-Encoding").isEmpty, let value = head.value("Content-Length") else { return nil }
        return Int(value.trimmingSpaces)
    }

    /// `HTTP/1.1 200 OK` → (200, `HTTP/1.1`).
    static func statusLine(_ line: [UInt8]) throws(HTTPResponseFailure) -> (Int, String) {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, Array(line[..<7]) == prefix, (48...57).contains(line[7]), line[8] == 32,
              line[9...11].allSatisfy({ (48...57).contains($0) }), line.count == 12 || line[12] == 32 else { throw .badStatusLine }
        let status = line[9...11].reduce(0) { $0 * 10 + Int($1 - 48) }
        guard (100...599).contains(status) else { throw .badStatusLine }
        return (status, String(decoding: line[..<8], as: UTF8.self))
    }

    /// `1a2b;name=value` → 0x1a2b.
    static func chunkSize(_ line: [UInt8]) throws(HTTPResponseFailure) -> Int {
        let digits = line.prefix { $0 != 59 && $0 != 32 && $0 != 9 }
        guard !digits.isEmpty, digits.count <= 15 else { throw .badChunk }
        var size = 0
        for byte in digits {
            guard let value = hexValue(byte) else { throw .badChunk }
            size = size << 4 | value
        }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 65...70: Int(byte - 55)
        case 97...102: Int(byte - 87)
        default: nil
        }
    }

    /// A header name's bytes: visible ASCII but separators.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte > 32 && byte < 127 && !separators.contains(byte)
    }

    private static let separators = Set("()<>@,;:\\\"/[]?={}".utf8)

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingSpaces
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        guard let start = firstIndex(where: { $0 != " " && $0 != "\t" }),
              let end = lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(self[start...end])
    }
}
