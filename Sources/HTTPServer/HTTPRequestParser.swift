import Foundation

/// What the parser made of the bytes at the front of a connection's buffer.
enum HTTPParseResult: Equatable, Sendable {
    /// Not a whole request yet. `headComplete` once the headers are in; `expectsContinue` when
    /// they asked for `100 Continue` before sending the body.
    case incomplete(headComplete: Bool, expectsContinue: Bool)
    /// One whole request, taking the first `consumed` bytes.
    case request(HTTPParsedRequest)
    /// The bytes are no acceptable request; the connection answers and closes.
    case failure(HTTPParseError)
}

/// A whole request with what the connection needs besides it.
struct HTTPParsedRequest: Equatable, Sendable {
    var request: HTTPRequest
    /// Whether the connection stays open after the answer (HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`).
    var keepAlive: Bool
    /// HTTP/1.0 asked; the answer still says HTTP/1.1 but keep-alive must be explicit.
    var isHTTP10: Bool
    /// Bytes of the buffer this request took (pipelined requests follow).
    var consumed: Int
}

/// HTTP/1.1 request parsing: bytes to a request or a typed error, no I/O.
///
/// Incremental over a growing buffer: `next` resumes where the previous call stopped, so a
/// request arriving a byte at a time costs what it costs whole. A decision (request or failure)
/// taken on some bytes is the same for every longer buffer starting with them, because each
/// check runs when the line it reads is complete: feeding bytes in any pieces gives what the
/// whole gives (the fuzz tests hold it to that).
struct HTTPRequestParser {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    /// A chunk-size line (size and extensions) longer than this is refused.
    static let maxChunkLine = 1024

    let limits: HTTPLimits
    let peer: String

    private enum Phase {
        case blankLines
        case head(isFirst: Bool)
        case fixedBody(length: Int)
        case chunkLine
        case chunkData(size: Int)
        case chunkEnd
        case trailers(start: Int)
        case failed(HTTPParseError)
    }

    private var phase = Phase.blankLines
    /// Where the part being read starts (a line, a chunk's data).
    private var position = 0
    /// Where the search for the next line end resumes (bytes before it hold none).
    private var searchFrom = 0
    private var head = Head()
    private var bodyStart = 0
    private var body = Data()

    init(limits: HTTPLimits, peer: String = "127.0.0.1") {
        self.limits = limits
        self.peer = peer
    }

    /// The first request in `bytes`, or why there is none yet (a fresh parse of the whole).
    static func parse(_ bytes: [UInt8], limits: HTTPLimits, peer: String = "127.0.0.1") -> HTTPParseResult {
        var parser = HTTPRequestParser(limits: limits, peer: peer)
        return bytes.withUnsafeBufferPointer { parser.next($0) }
    }

    /// The first request in `bytes`, given the same bytes as the previous call and maybe more.
    /// After a request the parser starts afresh: the caller drops the request's `consumed` bytes
    /// from the front before the next call. A failure is final.
    mutating func next(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPParseResult {
        let result = advance(bytes)
        switch result {
        case .request: self = HTTPRequestParser(limits: limits, peer: peer)
        case .failure(let error): phase = .failed(error)
        case .incomplete: break
        }
        return result
    }

    private var waiting: HTTPParseResult {
        .incomplete(headComplete: true, expectsContinue: !head.isHTTP10 && head.expectsContinue)
    }

    private mutating func advance(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPParseResult {
        let count = bytes.count
        let cr = Self.cr
        while true {
            switch phase {
            case .failed(let error):
                return .failure(error)
            case .blankLines:
                // Blank lines before a request line are ignored (RFC 9112 §2.2).
                while position < count, bytes[position] == cr || bytes[position] == Self.lf { position += 1 }
                if position > limits.maxHeadBytes { return .failure(.headTooLarge) }
                if position == count { return .incomplete(headComplete: false, expectsContinue: false) }
                searchFrom = position
                phase = .head(isFirst: true)
            case .head(let isFirst):
                guard let newline = Self.find(Self.lf, in: bytes, from: searchFrom) else {
                    searchFrom = count
                    return count > limits.maxHeadBytes ? .failure(.headTooLarge) : .incomplete(headComplete: false, expectsContinue: false)
                }
                if newline + 1 > limits.maxHeadBytes { return .failure(.headTooLarge) }
                let end = newline > position && bytes[newline - 1] == cr ? newline - 1 : newline
                let line = UnsafeBufferPointer(rebasing: bytes[position..<end])
                position = newline + 1
                searchFrom = position
                if isFirst {
                    if let error = head.readRequestLine(line) { return .failure(error) }
                    phase = .head(isFirst: false)
                } else if line.isEmpty {
                    bodyStart = position
                    switch head.framing(limits: limits) {
                    case .failure(let error): return .failure(error)
                    case .success(nil): phase = .chunkLine
                    case .success(let length?): phase = .fixedBody(length: length)
                    }
                } else if let error = head.readHeader(line) {
                    return .failure(error)
                }
            case .fixedBody(let length):
                if count - bodyStart < length { return waiting }
                if length > 0 { body = Data(UnsafeBufferPointer(rebasing: bytes[bodyStart..<(bodyStart + length)])) }
                return complete(consumed: bodyStart + length)
            case .chunkLine:
                let window = Self.maxChunkLine - (searchFrom - position)
                guard let newline = Self.find(Self.lf, in: bytes, from: searchFrom, limit: window) else {
                    if count - position > Self.maxChunkLine { return .failure(.badChunk) }
                    searchFrom = count
                    return waiting
                }
                let end = newline > position && bytes[newline - 1] == cr ? newline - 1 : newline
                guard let size = Self.chunkSize(UnsafeBufferPointer(rebasing: bytes[position..<end])) else { return .failure(.badChunk) }
                if size > limits.maxBodyBytes - body.count { return .failure(.bodyTooLarge) }
                position = newline + 1
                searchFrom = position
                phase = size == 0 ? .trailers(start: position) : .chunkData(size: size)
            case .chunkData(let size):
                if count - position < size { return waiting }
                body.append(UnsafeBufferPointer(rebasing: bytes[position..<(position + size)]))
                position += size
                phase = .chunkEnd
            case .chunkEnd:
                // The data's CRLF (or a bare LF).
                guard position < count else { return waiting }
                if bytes[position] == cr {
                    guard position + 1 < count else { return waiting }
                    guard bytes[position + 1] == Self.lf else { return .failure(.badChunk) }
                    position += 2
                } else if bytes[position] == Self.lf {
                    position += 1
                } else {
                    return .failure(.badChunk)
                }
                searchFrom = position
                phase = .chunkLine
            case .trailers(let start):
                // Trailers are read and ignored until a blank line; they count against the head limit.
                guard let newline = Self.find(Self.lf, in: bytes, from: searchFrom) else {
                    searchFrom = count
                    return count - start > limits.maxHeadBytes ? .failure(.headTooLarge) : waiting
                }
                if newline + 1 - start > limits.maxHeadBytes { return .failure(.headTooLarge) }
                let end = newline > position && bytes[newline - 1] == cr ? newline - 1 : newline
                let isBlank = end == position
                position = newline + 1
                searchFrom = position
                if isBlank { return complete(consumed: position) }
            }
        }
    }

    private func complete(consumed: Int) -> HTTPParseResult {
        let request = HTTPRequest(method: head.method, target: head.target, headers: head.headers, body: body, peer: peer)
        return .request(HTTPParsedRequest(request: request, keepAlive: head.keepAlive, isHTTP10: head.isHTTP10, consumed: consumed))
    }

    /// The hexadecimal size at the start of a chunk-size line (extensions after `;` ignored).
    private static func chunkSize(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        var index = 0
        while index < line.count, let digit = hexValue(line[index]) {
            guard digits < 15 else { return nil }
            value = value * 16 + digit
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        while index < line.count, line[index] == 32 || line[index] == 9 { index += 1 }
        guard index == line.count || line[index] == UInt8(ascii: ";") else { return nil }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: return Int(byte - 48)
        case 65...70: return Int(byte - 55)
        case 97...102: return Int(byte - 87)
        default: return nil
        }
    }

    /// A `Content-Length` value: decimal digits only, at most 18 of them.
    static func decimal(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18, utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }

    /// The index of the first `byte` at or after `start` (looking at most `limit` bytes), if any.
    static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int = .max) -> Int? {
        guard start < bytes.count, limit > 0, let base = bytes.baseAddress else { return nil }
        let length = min(bytes.count - start, limit)
        guard let found = memchr(base + start, Int32(byte), length) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

/// The request line and headers as they are read, one line at a time.
private struct Head {
    var method = ""
    var target = ""
    var isHTTP10 = false
    var headers: [HTTPHeader] = []
    var closeAsked = false
    var keepAliveAsked = false
    var expectsContinue = false
    var contentLength: Int?
    var chunked = false

    var keepAlive: Bool { isHTTP10 ? keepAliveAsked && !closeAsked : !closeAsked }

    /// How the body is delimited: its length (`Content-Length`, or 0 without one), or `nil` for chunks.
    func framing(limits: HTTPLimits) -> Result<Int?, HTTPParseError> {
        if chunked { return contentLength == nil ? .success(nil) : .failure(.ambiguousLength) }
        let length = contentLength ?? 0
        return length > limits.maxBodyBytes ? .failure(.bodyTooLarge) : .success(length)
    }

    /// `METHOD SP TARGET SP HTTP/x.y`, single spaces, a token method, a visible-ASCII target.
    mutating func readRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        guard let firstSpace = line.firstIndex(of: 32) else { return .malformedRequestLine }
        guard let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 32) else { return .malformedRequestLine }
        let methodBytes = line[..<firstSpace]
        let targetBytes = line[(firstSpace + 1)..<secondSpace]
        let versionBytes = line[(secondSpace + 1)...]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(HeadBytes.isTokenByte) else { return .malformedRequestLine }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else { return .malformedRequestLine }
        let version = Array(versionBytes)
        // HTTP/d.d exactly.
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
              HeadBytes.isDigit(version[5]), version[6] == UInt8(ascii: "."), HeadBytes.isDigit(version[7])
        else { return .malformedRequestLine }
        guard version[5] == UInt8(ascii: "1") else { return .unsupportedVersion }
        isHTTP10 = version[7] == UInt8(ascii: "0")
        method = String(decoding: methodBytes, as: UTF8.self)
        target = String(decoding: targetBytes, as: UTF8.self)
        return nil
    }

    /// `Name: value`, the value's surrounding blanks dropped; no folding, no control characters.
    mutating func readHeader(_ line: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return .malformedHeader }
        let nameBytes = line[..<colon]
        guard nameBytes.allSatisfy(HeadBytes.isTokenByte) else { return .malformedHeader }
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == 32 || line[start] == 9 { start += 1 }
        while end > start, line[end - 1] == 32 || line[end - 1] == 9 { end -= 1 }
        let valueBytes = line[start..<end]
        guard valueBytes.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { return .malformedHeader }
        let name = String(decoding: nameBytes, as: UTF8.self)
        let value = String(decoding: valueBytes, as: UTF8.self)
        if HeadBytes.named(nameBytes, HeadBytes.contentLength) {
            guard let length = HTTPRequestParser.decimal(value), contentLength == nil || contentLength == length else { return .badContentLength }
            contentLength = length
        } else if HeadBytes.named(nameBytes, HeadBytes.transferEncoding) {
            let codings = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard codings == ["chunked"], !chunked else { return .unsupportedTransferEncoding }
            chunked = true
        } else if HeadBytes.named(nameBytes, HeadBytes.connection) {
            for token in value.split(separator: ",") {
                let word = token.trimmingCharacters(in: .whitespaces).lowercased()
                if word == "close" { closeAsked = true }
                if word == "keep-alive" { keepAliveAsked = true }
            }
        } else if HeadBytes.named(nameBytes, HeadBytes.expect), value.lowercased() == "100-continue" {
            expectsContinue = true
        }
        headers.append(HTTPHeader(name, value))
        return nil
    }
}

/// Byte classes of RFC 9110.
private enum HeadBytes {
    static let contentLength = Array("content-length".utf8)
    static let transferEncoding = Array("transfer-encoding".utf8)
    static let connection = Array("connection".utf8)
    static let expect = Array("expect".utf8)

    /// Whether a header name is `lowercased`, ignoring ASCII case.
    static func named(_ name: Slice<UnsafeBufferPointer<UInt8>>, _ lowercased: [UInt8]) -> Bool {
        guard name.count == lowercased.count else { return false }
        return zip(name, lowercased).allSatisfy { $0 | 0x20 == $1 }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// A `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }
}
