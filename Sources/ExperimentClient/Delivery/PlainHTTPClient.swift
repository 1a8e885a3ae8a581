#if canImport(Glibc) && canImport(CZlib)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's own HTTP/1.1 transport for `http://` URLs on Linux, where FoundationNetworking's
/// (libcurl's) inflates a gzip body in full before the cap sees it and spins a core while a body
/// trickles in. One request a connection (`Connection: close`), gzip inflated here as it arrives.
///
/// Bounded: one overall deadline for the whole exchange (redirects included), every wait a
/// `poll` on a thread of its own (the caller's task sleeps on a continuation), the head at 64 KiB,
/// the body at `maxBytes` counted on the bytes kept. Redirects are followed up to `maxRedirects`
/// (a URL seen twice is a loop); one to `https://` is handed back to URLSession.
enum PlainHTTPClient {
    /// What an exchange came to.
    enum Outcome {
        /// The final answer.
        case answer(Data, HTTPURLResponse)
        /// A redirect to a URL this transport does not speak (`https://`): `request` is to be sent
        /// by URLSession within the `seconds` left.
        case handOver(URLRequest, seconds: TimeInterval)
    }

    static let maxRedirects = 10
    static let userAgent = "ExperimentClient"

    /// Sends `request` (an `http://` URL) on a thread of its own; ends by `deadline` seconds.
    static func send(_ request: URLRequest, deadline: TimeInterval, maxBytes: Int) async throws(RefreshError) -> Outcome {
        let control = ExchangeControl(seconds: deadline)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Outcome, RefreshError>, Never>) in
                let thread = Thread {
                    continuation.resume(returning: Result { () throws(RefreshError) -> Outcome in
                        try exchange(request, control: control, maxBytes: maxBytes)
                    })
                }
                thread.name = "ExperimentClient HTTP"
                thread.start()
            }
        } onCancel: {
            control.cancel()
        }
        return try result.get()
    }

    /// Sends `request`, following redirects, until an answer, a hand-over or a failure.
    static func exchange(_ request: URLRequest, control: ExchangeControl, maxBytes: Int) throws(RefreshError) -> Outcome {
        let source = request.url?.absoluteString ?? ""
        var request = request
        var visited: Set<String> = []
        for _ in 0...maxRedirects {
            guard let url = request.url else { break }
            visited.insert(url.absoluteString)
            switch try once(request, url: url, source: source, control: control, maxBytes: maxBytes) {
            case .answer(let data, let response):
                return .answer(data, response)
            case .redirect(let next):
                guard let target = next.url, !visited.contains(target.absoluteString) else {
                    throw RefreshError(url: source, kind: .redirectLoop)
                }
                guard target.scheme?.lowercased() == "http" else {
                    guard target.scheme?.lowercased() == "https" else {
                        throw RefreshError(url: source, kind: .unreachable, detail: "redirected to \(target.absoluteString), which is not HTTP")
                    }
                    return .handOver(next, seconds: control.secondsLeft)
                }
                request = next
            }
        }
        throw RefreshError(url: source, kind: .redirectLoop)
    }

    private enum Step {
        case answer(Data, HTTPURLResponse)
        case redirect(URLRequest)
    }

    /// One request on one connection: its answer, or the request a redirect asks for.
    private static func once(_ request: URLRequest, url: URL, source: String, control: ExchangeControl,
                             maxBytes: Int) throws(RefreshError) -> Step {
        guard let host = url.host, !host.isEmpty else {
            throw RefreshError(url: source, kind: .unreachable, detail: "the URL names no host")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let method = request.httpMethod ?? "GET"
        let socket: PlainHTTPSocket
        do {
            socket = try PlainHTTPSocket.connect(host: bare, port: url.port ?? 80, control: control)
        } catch {
            throw failure(error, source: source, control: control, receiving: false)
        }
        defer { socket.close() }
        do {
            try socket.send(HTTPRequestBytes.make(request, url: url, host: bare, userAgent: userAgent,
                                                  acceptEncoding: ResponseBody.acceptEncoding), control: control)
        } catch {
            throw failure(error, source: source, control: control, receiving: false)
        }
        var parser = HTTPResponseParser(isHead: method == "HEAD")
        var body: ResponseBody?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while !parser.isComplete {
            let count: Int
            do {
                count = try socket.receive(into: buffer, control: control)
            } catch {
                throw failure(error, source: source, control: control, receiving: true)
            }
            if count == 0 {
                do {
                    try parser.finish()
                } catch {
                    throw parseFailure(error, source: source)
                }
                break
            }
            let input = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            let ranges: [Range<Int>]
            do {
                ranges = try parser.feed(input)
            } catch {
                throw parseFailure(error, source: source)
            }
            guard let head = parser.head else { continue }
            if body == nil {
                if let next = redirect(request, url: url, head: head) { return .redirect(next) }
                // A declared length past the cap ends it before the body (compressed length with gzip).
                if head.status == 200, let declared = parser.declaredLength, declared > maxBytes {
                    throw RefreshError(url: source, kind: .tooLarge(limit: maxBytes))
                }
                body = try bodyOrFailure(head, maxBytes: maxBytes, declared: parser.declaredLength, source: source)
            }
            for range in ranges {
                try keep(UnsafeRawBufferPointer(rebasing: input[range]), in: &body, maxBytes: maxBytes, source: source)
            }
        }
        guard let head = parser.head else {
            throw RefreshError(url: source, kind: .interrupted, detail: HTTPResponseFailure.noAnswer.description)
        }
        let data: Data
        do {
            data = try body?.finished() ?? Data()
        } catch {
            throw bodyFailure(error, source: source, maxBytes: maxBytes)
        }
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            if let key = fields.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                fields[key] = (fields[key] ?? "") + ", " + value
            } else {
                fields[name] = value
            }
        }
        guard let response = HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version, headerFields: fields) else {
            throw RefreshError(url: source, kind: .unreachable, detail: HTTPResponseFailure.badStatusLine.description)
        }
        return .answer(data, response)
    }

    /// The body collector for `head`'s `Content-Encoding`, or the failure of an unreadable one.
    private static func bodyOrFailure(_ head: HTTPResponseHead, maxBytes: Int, declared: Int?, source: String) throws(RefreshError) -> ResponseBody {
        do {
            return try ResponseBody(contentEncoding: head.values("Content-Encoding"), maxBytes: maxBytes, declaredLength: declared)
        } catch {
            throw bodyFailure(error, source: source, maxBytes: maxBytes)
        }
    }

    private static func keep(_ bytes: UnsafeRawBufferPointer, in body: inout ResponseBody?, maxBytes: Int, source: String) throws(RefreshError) {
        do {
            try body?.append(bytes)
        } catch {
            throw bodyFailure(error, source: source, maxBytes: maxBytes)
        }
    }

    /// The request a redirect in `head` asks for, if it is one to follow (`301`, `302`, `303`,
    /// `307`, `308` with a `Location`): `303`, and `301`/`302` after a `POST`, become a `GET`
    /// without body; `Authorization` is not sent to another host.
    static func redirect(_ request: URLRequest, url: URL, head: HTTPResponseHead) -> URLRequest? {
        guard [301, 302, 303, 307, 308].contains(head.status), let location = head.value("Location"),
              let target = URL(string: location, relativeTo: url)?.absoluteURL else { return nil }
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        if head.status == 303 && method != "HEAD" || [301, 302].contains(head.status) && method == "POST" {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
        }
        if target.host?.lowercased() != url.host?.lowercased() || target.port != url.port {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        return next
    }

    private static func failure(_ error: PlainHTTPSocket.Failure, source: String, control: ExchangeControl, receiving: Bool) -> RefreshError {
        switch error {
        case .timedOut: SnapshotFetcher.timedOut(source, deadline: control.seconds)
        case .cancelled: RefreshError(url: source, kind: .unreachable, detail: "cancelled")
        case .unresolved(let words), .unreachable(let words): RefreshError(url: source, kind: .unreachable, detail: words)
        case .broken(let words): RefreshError(url: source, kind: receiving ? .interrupted : .unreachable, detail: words)
        }
    }

    /// An answer that broke off is `interrupted`; one that is no HTTP/1.x answer, `unreachable`.
    private static func parseFailure(_ error: HTTPResponseFailure, source: String) -> RefreshError {
        RefreshError(url: source, kind: error == .truncated || error == .noAnswer ? .interrupted : .unreachable, detail: error.description)
    }

    private static func bodyFailure(_ error: ResponseBody.Failure, source: String, maxBytes: Int) -> RefreshError {
        switch error {
        case .tooLarge:
            RefreshError(url: source, kind: .tooLarge(limit: maxBytes))
        case .unsupportedEncoding(let coding):
            RefreshError(url: source, kind: .notASnapshot(reason: "the server sent its answer with `Content-Encoding: \(coding)`, "
                + "which the client does not read (it asks for gzip or no compression)"))
        case .corrupt(let words):
            RefreshError(url: source, kind: .notASnapshot(reason: "the server's gzip-compressed answer is corrupt (\(words))"))
        case .truncatedEncoding:
            RefreshError(url: source, kind: .interrupted, detail: "the gzip-compressed body ends early")
        }
    }
}
#endif
