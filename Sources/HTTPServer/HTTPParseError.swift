import Foundation

/// Why the bytes at the front of a connection are no acceptable request: each maps to one JSON answer.
enum HTTPParseError: Error, Equatable, Sendable {
    /// The request line and headers (or a chunked body's trailers) are longer than the limit.
    case headTooLarge
    /// The body (declared or joined from chunks) is longer than the limit.
    case bodyTooLarge
    /// The request line is not `METHOD TARGET HTTP/x.y`.
    case malformedRequestLine
    /// A header line is not `Name: value`, or is folded onto the next line.
    case malformedHeader
    /// An `HTTP/x.y` version other than 1.x.
    case unsupportedVersion
    /// `Content-Length` is not one decimal number, or two disagree.
    case badContentLength
    /// Both `Content-Length` and `Transfer-Encoding`, which could be read two ways.
    case ambiguousLength
    /// A `Transfer-Encoding` other than `chunked`.
    case unsupportedTransferEncoding
    /// A chunked body whose size lines or separators are malformed.
    case badChunk
}

/// The JSON error answers the server itself gives (the handler's router gives `404` and `405`).
enum HTTPErrorAnswer {
    /// The answer to a request that could not be parsed.
    static func response(for error: HTTPParseError, limits: HTTPLimits) -> HTTPResponse {
        switch error {
        case .headTooLarge:
            return make(431, "HEADERS_TOO_LARGE", "The request line and headers are longer than \(limits.maxHeadBytes) bytes.")
        case .bodyTooLarge:
            return make(413, "PAYLOAD_TOO_LARGE", "The request body is longer than \(limits.maxBodyBytes) bytes.")
        case .malformedRequestLine:
            return make(400, "BAD_REQUEST", "The request line is not METHOD TARGET HTTP/1.1.")
        case .malformedHeader:
            return make(400, "BAD_REQUEST", "A header line is not Name: value.")
        case .unsupportedVersion:
            return make(505, "HTTP_VERSION_NOT_SUPPORTED", "Only HTTP/1.0 and HTTP/1.1 are served.")
        case .badContentLength:
            return make(400, "BAD_REQUEST", "Content-Length is not one decimal number.")
        case .ambiguousLength:
            return make(400, "BAD_REQUEST", "A request may not carry both Content-Length and Transfer-Encoding.")
        case .unsupportedTransferEncoding:
            return make(501, "NOT_IMPLEMENTED", "Only Transfer-Encoding: chunked is accepted.")
        case .badChunk:
            return make(400, "BAD_REQUEST", "The chunked body is malformed.")
        }
    }

    /// The answer to a request not complete within the deadline.
    static func timeout(_ limits: HTTPLimits) -> HTTPResponse {
        make(408, "REQUEST_TIMEOUT", "The request was not complete within \(seconds(limits.requestDeadline)) seconds.")
    }

    /// The answer to a connection past the limit of open connections.
    static func overloaded(_ limits: HTTPLimits) -> HTTPResponse {
        make(503, "SERVICE_UNAVAILABLE", "The server has \(limits.maxConnections) open connections already; try again shortly.")
    }

    /// `{"errorCode":…,"errorDetails":…}` (keys sorted); `details` are the server's own words, no escaping needed.
    static func make(_ status: Int, _ code: String, _ details: String) -> HTTPResponse {
        let body = "{\"errorCode\":\"\(code)\",\"errorDetails\":\"\(details)\"}"
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Data(body.utf8))
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
