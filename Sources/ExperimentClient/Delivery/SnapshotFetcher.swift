import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's one HTTP transport: a request sent with no URL cache, one overall deadline and a
/// cap on the body's bytes as they arrive (after any gzip inflation). Snapshot fetches, the
/// server's bulk evaluations and the exposure sink's batches all go through `send`.
enum SnapshotFetcher {
    /// What a conditional request was answered.
    enum Answer {
        case notModified
        case body(Data, Validators)
    }

    /// What makes the next request conditional: the last good answer's `ETag` and `Last-Modified`.
    struct Validators: Hashable, Sendable, Codable {
        var etag: String?
        var lastModified: String?

        /// Adds `If-None-Match` and `If-Modified-Since` to `request` for the validators there are.
        func apply(to request: inout URLRequest) {
            if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        }
    }

    /// GETs `url`; `validators` (when the snapshot in use came from this URL) make a `304` possible.
    static func fetch(_ url: URL, validators: Validators, deadline: TimeInterval, maxBytes: Int) async throws(RefreshError) -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: deadline)
        validators.apply(to: &request)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return try await conditional(request, deadline: deadline, maxBytes: maxBytes)
    }

    /// Sends `request` and reads its answer as a conditional one: `200` with a body and its
    /// validators, `304`, or an error (a redirect left over is a loop, any other status a failure).
    static func conditional(_ request: URLRequest, deadline: TimeInterval, maxBytes: Int) async throws(RefreshError) -> Answer {
        let source = request.url?.absoluteString ?? ""
        let (data, response) = try await send(request, deadline: deadline, maxBytes: maxBytes)
        guard let http = response as? HTTPURLResponse else { return .body(data, Validators()) }
        switch http.statusCode {
        case 304: return .notModified
        case 200: return .body(data, Validators(etag: http.value(forHTTPHeaderField: "ETag"),
                                                lastModified: http.value(forHTTPHeaderField: "Last-Modified")))
        case 300..<400: throw RefreshError(url: source, kind: .redirectLoop)
        default: throw RefreshError(url: source, kind: .httpStatus(http.statusCode))
        }
    }

    /// Sends `request` and returns whatever whole answer came, any status.
    ///
    /// Ends by `deadline` seconds whatever the server does (a body trickling in a byte at a time
    /// included), and as soon as the body passes `maxBytes`: neither waits for the transport's own
    /// timers, and the caller's task sleeps on a continuation while the transfer runs. On Linux an
    /// `http://` URL goes through the client's own transport (`PlainHTTPClient`), whose waits
    /// block in `poll` and whose cap counts gzip as it inflates; `https://`, and every URL on
    /// Apple platforms, through URLSession.
    static func send(_ request: URLRequest, deadline: TimeInterval, maxBytes: Int) async throws(RefreshError) -> (Data, URLResponse) {
        #if canImport(Glibc) && canImport(CZlib)
        if request.url?.scheme?.lowercased() == "http" {
            switch try await PlainHTTPClient.send(request, deadline: deadline, maxBytes: maxBytes) {
            case .answer(let data, let response): return (data, response)
            case .handOver(let next, let seconds): return try await sessionSend(next, deadline: seconds, maxBytes: maxBytes)
            }
        }
        #endif
        return try await sessionSend(request, deadline: deadline, maxBytes: maxBytes)
    }

    /// The failure of a fetch given up at its deadline of `deadline` seconds.
    static func timedOut(_ url: String, deadline: TimeInterval) -> RefreshError {
        RefreshError(url: url, kind: .timedOut, detail: "the whole answer must come within \(deadline.formatted()) s")
    }

    /// `send` through URLSession, its delegate (`SnapshotTransfer`) keeping the deadline and the cap.
    private static func sessionSend(_ request: URLRequest, deadline: TimeInterval, maxBytes: Int) async throws(RefreshError) -> (Data, URLResponse) {
        let configuration = URLSessionConfiguration.ephemeral
        // The client does its own conditional requests; a URL cache would turn a 304 into the cached 200.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = deadline
        configuration.timeoutIntervalForResource = deadline
        let source = request.url?.absoluteString ?? ""
        let transfer = SnapshotTransfer(url: source, maxBytes: maxBytes)
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.start(session.dataTask(with: request), deadline: deadline, continuation)
            }
        } onCancel: {
            transfer.stop(RefreshError(url: source, kind: .unreachable, detail: "cancelled"))
        }
        return try outcome.get()
    }
}
