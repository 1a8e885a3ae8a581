import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One conditional GET of a snapshot over HTTP(S): `If-None-Match` with the last ETag, no URL cache,
/// one overall deadline and a cap on the body's bytes as they arrive (after any gzip inflation).
enum SnapshotFetcher {
    /// What the server answered.
    enum Answer {
        case notModified
        case body(Data, etag: String?)
    }

    /// Fetches `url`; `etag` (when the snapshot in use came from this URL) makes a `304` possible.
    ///
    /// Ends by `deadline` seconds whatever the server does (a body trickling in a byte at a time
    /// included), and as soon as the body passes `maxBytes`: neither waits for the transport's own
    /// timers, and the caller's task sleeps on a continuation while the transfer runs.
    static func fetch(_ url: URL, etag: String?, deadline: TimeInterval, maxBytes: Int) async throws(RefreshError) -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: deadline)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let configuration = URLSessionConfiguration.ephemeral
        // The client does its own conditional requests; a URL cache would turn a 304 into the cached 200.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = deadline
        configuration.timeoutIntervalForResource = deadline
        let source = url.absoluteString
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
        switch outcome {
        case .failure(let error):
            throw error
        case .success(let (data, response)):
            guard let http = response as? HTTPURLResponse else { return .body(data, etag: nil) }
            switch http.statusCode {
            case 304: return .notModified
            case 200: return .body(data, etag: http.value(forHTTPHeaderField: "ETag"))
            case 300..<400: throw RefreshError(url: source, kind: .redirectLoop)
            default: throw RefreshError(url: source, kind: .httpStatus(http.statusCode))
            }
        }
    }
}
