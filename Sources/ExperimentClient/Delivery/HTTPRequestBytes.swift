import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bytes of an HTTP/1.1 request for the client's own transport: request line, `Host`, the
/// request's headers, `Accept-Encoding`, `Connection: close`, `Content-Length` with a body.
enum HTTPRequestBytes {
    /// Headers the transport sets itself; the request's own values for them are not sent.
    static let owned: Set<String> = ["host", "connection", "content-length", "transfer-encoding", "accept-encoding"]

    /// `request` to `url` (on `host`, without brackets) as bytes. A header whose name or value
    /// holds a line break or NUL is left out (it would split the request).
    static func make(_ request: URLRequest, url: URL, host: String, userAgent: String, acceptEncoding: String) -> [UInt8] {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var target = components?.percentEncodedPath ?? ""
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let method = request.httpMethod ?? "GET"
        var authority = host.contains(":") ? "[\(host)]" : host
        if let port = url.port, port != 80 { authority += ":\(port)" }
        var lines = ["\(method) \(target) HTTP/1.1", "Host: \(authority)"]
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        for (name, value) in fields where !owned.contains(name.lowercased()) && isSafe(name) && isSafe(value) && !name.isEmpty {
            lines.append("\(name): \(value)")
        }
        let names = Set(fields.map { $0.key.lowercased() })
        if !names.contains("user-agent") { lines.append("User-Agent: \(userAgent)") }
        if !names.contains("authorization"), let user = url.user {
            let credentials = Data("\(user.removingPercentEncoding ?? user):\(url.password?.removingPercentEncoding ?? url.password ?? "")".utf8)
            lines.append("Authorization: Basic \(credentials.base64EncodedString())")
        }
        lines.append("Accept-Encoding: \(acceptEncoding)")
        lines.append("Connection: close")
        let body = request.httpBody ?? Data()
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { lines.append("Content-Length: \(body.count)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + Array(body)
    }

    /// Whether `text` can stand in a header line (no CR, LF or NUL).
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }
}
