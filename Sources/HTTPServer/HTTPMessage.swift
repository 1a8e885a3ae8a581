import Foundation

/// One header line of a request or response, its name as sent.
package struct HTTPHeader: Sendable, Equatable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Whether two header names are equal ignoring ASCII case (header names are ASCII tokens), byte by byte.
    static func sameName(_ first: String, _ second: String) -> Bool {
        let a = first.utf8, b = second.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 97 && (x | 0x20) <= 122) }
    }
}

/// One complete HTTP/1.1 request: the body whole (a chunked body already joined).
package struct HTTPRequest: Sendable, Equatable {
    /// The method as sent, e.g. `GET`, `POST`.
    package var method: String
    /// The request target as sent: the path with its query, e.g. `/ofrep/v1/evaluate/flags`.
    package var target: String
    package var headers: [HTTPHeader]
    package var body: Data
    /// The peer's address for logs and the loopback check, e.g. `127.0.0.1`.
    package var peer: String

    package init(method: String, target: String, headers: [HTTPHeader] = [], body: Data = Data(), peer: String = "127.0.0.1") {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// The target without its query string.
    package var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// The first header named `name` (compared without regard to case), if any.
    package func header(_ name: String) -> String? {
        headers.first { HTTPHeader.sameName($0.name, name) }?.value
    }
}

/// One response: status, headers (the server adds `Content-Length`, `Date` and `Connection`), body.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [HTTPHeader]
    package var body: Data

    package init(status: Int, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// What answers requests: called from the server's threads, possibly at once, so it must be thread-safe.
package protocol HTTPHandler: Sendable {
    /// The answer to one complete request.
    func respond(to request: HTTPRequest) -> HTTPResponse
}
