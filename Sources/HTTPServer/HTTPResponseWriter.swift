/// Serialises responses: the status line, the handler's headers, then `Content-Length`, `Date` and `Connection`.
enum HTTPResponseWriter {
    /// The headers the writer sets itself; the handler's own of these names are dropped.
    private static let ownHeaders = ["content-length", "date", "connection", "transfer-encoding"].map { Array($0.utf8) }

    private static func isOwn(_ name: String) -> Bool {
        ownHeaders.contains { own in name.utf8.count == own.count && zip(name.utf8, own).allSatisfy { $0 | 0x20 == $1 } }
    }

    /// Appends `response` to `output`. `date` is the cached `Date` value; `headOnly` answers a `HEAD`
    /// (the length of the body, not the body); `keepAlive` decides the `Connection` header.
    static func append(_ response: HTTPResponse, to output: inout [UInt8], date: String, keepAlive: Bool, headOnly: Bool = false) {
        output.reserveCapacity(output.count + 160 + response.body.count)
        output.append(contentsOf: "HTTP/1.1 \(response.status) \(reason(response.status))\r\n".utf8)
        for header in response.headers where !isOwn(header.name) {
            output.append(contentsOf: header.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: header.value.utf8.lazy.map { $0 == 13 || $0 == 10 ? 32 : $0 })
            output.append(contentsOf: "\r\n".utf8)
        }
        let bodiless = response.status < 200 || response.status == 204 || response.status == 304
        if !bodiless {
            output.append(contentsOf: "Content-Length: \(response.body.count)\r\n".utf8)
        }
        output.append(contentsOf: "Date: ".utf8)
        output.append(contentsOf: date.utf8)
        output.append(contentsOf: keepAlive ? "\r\nConnection: keep-alive\r\n\r\n".utf8 : "\r\nConnection: close\r\n\r\n".utf8)
        if !bodiless, !headOnly {
            output.append(contentsOf: response.body)
        }
    }

    /// The interim answer to `Expect: 100-continue`.
    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The reason phrase of a status code.
    static func reason(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
