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

/// HTTP/1.1 request parsing: a function from bytes to a request or a typed error, no I/O.
///
/// Incremental over a growing buffer: a decision (request or failure) taken on some bytes is the
/// same for every longer buffer starting with them, because each check runs when the line it
/// reads is complete, so feeding bytes in any pieces gives what the whole gives.
enum HTTPRequestParser {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    /// A chunk-size line (size and extensions) longer than this is refused.
    static let maxChunkLine = 1024

    /// The first request in `bytes`, or why there is none yet.
    static func parse(_ bytes: [UInt8], limits: HTTPLimits, peer: String = "127.0.0.1") -> HTTPParseResult {
        bytes.withUnsafeBufferPointer { parse($0, limits: limits, peer: peer) }
    }

    /// The first request in `bytes`, or why there is none yet.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPLimits, peer: String) -> HTTPParseResult {
        let count = bytes.count
        var position = 0
        // Blank lines before a request line are ignored (RFC 9112 §2.2).
        while position < count, bytes[position] == cr || bytes[position] == lf { position += 1 }
        if position > limits.maxHeadBytes { return .failure(.headTooLarge) }
        var head = Head()
        var isFirst = true
        while true {
            guard let newline = find(lf, in: bytes, from: position) else {
                return count > limits.maxHeadBytes ? .failure(.headTooLarge) : .incomplete(headComplete: false, expectsContinue: false)
            }
            if newline + 1 > limits.maxHeadBytes { return .failure(.headTooLarge) }
            let end = newline > position && bytes[newline - 1] == cr ? newline - 1 : newline
            let line = UnsafeBufferPointer(rebasing: bytes[position..<end])
            position = newline + 1
            if isFirst {
                if let error = head.readRequestLine(line) { return .failure(error) }
                isFirst = false
            } else if line.isEmpty {
                break
            } else if let error = head.readHeader(line) {
                return .failure(error)
            }
        }
        return body(of: head, bytes: bytes, bodyStart: position, limits: limits, peer: peer)
    }

    /// The body after a complete head: by `Content-Length`, by chunks, or none.
    private static func body(of head: Head, bytes: UnsafeBufferPointer<UInt8>, bodyStart: Int, limits: HTTPLimits, peer: String) -> HTTPParseResult {
        var contentLength: Int?
        var chunked = false
        for header in head.headers {
            if header.name.caseInsensitiveCompare("Content-Length") == .orderedSame {
                guard let value = decimal(header.value), contentLength == nil || contentLength == value else {
                    return .failure(.badContentLength)
                }
                contentLength = value
            } else if header.name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame {
                let codings = header.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard codings == ["chunked"], !chunked else { return .failure(.unsupportedTransferEncoding) }
                chunked = true
            }
        }
        if chunked, contentLength != nil { return .failure(.ambiguousLength) }
        let expectsContinue = !head.isHTTP10 && head.expectsContinue
        var request = HTTPRequest(method: head.method, target: head.target, headers: head.headers, peer: peer)
        let consumed: Int
        if chunked {
            switch dechunk(bytes, from: bodyStart, limits: limits) {
            case .failure(let error): return .failure(error)
            case .incomplete: return .incomplete(headComplete: true, expectsContinue: expectsContinue)
            case .done(let data, let end):
                request.body = data
                consumed = end
            }
        } else {
            let length = contentLength ?? 0
            if length > limits.maxBodyBytes { return .failure(.bodyTooLarge) }
            if bytes.count - bodyStart < length { return .incomplete(headComplete: true, expectsContinue: expectsContinue) }
            if length > 0 { request.body = Data(UnsafeBufferPointer(rebasing: bytes[bodyStart..<(bodyStart + length)])) }
            consumed = bodyStart + length
        }
        return .request(HTTPParsedRequest(request: request, keepAlive: head.keepAlive, isHTTP10: head.isHTTP10, consumed: consumed))
    }

    private enum Chunks {
        case incomplete
        case failure(HTTPParseError)
        case done(Data, end: Int)
    }

    /// A chunked body joined: `size[;ext] CRLF data CRLF` … `0 CRLF` trailers `CRLF`.
    private static func dechunk(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limits: HTTPLimits) -> Chunks {
        var position = start
        var data = Data()
        while true {
            guard let newline = find(lf, in: bytes, from: position, limit: maxChunkLine) else {
                return bytes.count - position > maxChunkLine ? .failure(.badChunk) : .incomplete
            }
            let end = newline > position && bytes[newline - 1] == cr ? newline - 1 : newline
            guard let size = chunkSize(UnsafeBufferPointer(rebasing: bytes[position..<end])) else { return .failure(.badChunk) }
            if size > limits.maxBodyBytes - data.count { return .failure(.bodyTooLarge) }
            position = newline + 1
            if size == 0 { break }
            if bytes.count - position < size { return .incomplete }
            data.append(UnsafeBufferPointer(rebasing: bytes[position..<(position + size)]))
            position += size
            // The data's CRLF (or a bare LF).
            guard position < bytes.count else { return .incomplete }
            if bytes[position] == cr {
                guard position + 1 < bytes.count else { return .incomplete }
                guard bytes[position + 1] == lf else { return .failure(.badChunk) }
                position += 2
            } else if bytes[position] == lf {
                position += 1
            } else {
                return .failure(.badChunk)
            }
        }
        // Trailers, ignored, until a blank line; they count against the head limit.
        let trailersStart = position
        while true {
            guard let newline = find(lf, in: bytes, from: position) else {
                return bytes.count - trailersStart > limits.maxHeadBytes ? .failure(.headTooLarge) : .incomplete
            }
            if newline + 1 - trailersStart > limits.maxHeadBytes { return .failure(.headTooLarge) }
            let end = newline > position && bytes[newline - 1] == cr ? newline - 1 : newline
            let isBlank = end == position
            position = newline + 1
            if isBlank { return .done(data, end: position) }
        }
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
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
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

    var keepAlive: Bool { isHTTP10 ? keepAliveAsked && !closeAsked : !closeAsked }

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
        if name.caseInsensitiveCompare("Connection") == .orderedSame {
            for token in value.split(separator: ",") {
                let word = token.trimmingCharacters(in: .whitespaces).lowercased()
                if word == "close" { closeAsked = true }
                if word == "keep-alive" { keepAliveAsked = true }
            }
        } else if name.caseInsensitiveCompare("Expect") == .orderedSame, value.lowercased() == "100-continue" {
            expectsContinue = true
        }
        headers.append(HTTPHeader(name, value))
        return nil
    }
}

/// Byte classes of RFC 9110.
private enum HeadBytes {
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
