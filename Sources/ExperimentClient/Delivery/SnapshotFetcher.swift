import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One conditional GET of a snapshot over HTTP(S): `If-None-Match` with the last ETag, no URL cache.
enum SnapshotFetcher {
    /// What the server answered.
    enum Answer {
        case notModified
        case body(Data, etag: String?)
    }

    /// Fetches `url`; `etag` (when the snapshot in use came from this URL) makes a `304` possible.
    static func fetch(_ url: URL, etag: String?, timeout: TimeInterval) async throws(RefreshError) -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let configuration = URLSessionConfiguration.ephemeral
        // The client does its own conditional requests; a URL cache would turn a 304 into the cached 200.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let box = TaskBox()
        let result: Result<(Data, URLResponse), any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(error))
                    } else if let response {
                        continuation.resume(returning: .success((data ?? Data(), response)))
                    } else {
                        continuation.resume(returning: .failure(URLError(.badServerResponse)))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
        let source = url.absoluteString
        switch result {
        case .failure(let error):
            throw failure(error, url: source)
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

    /// The kind of a transport error.
    private static func failure(_ error: any Error, url: String) -> RefreshError {
        guard let error = error as? URLError else { return RefreshError(url: url, kind: .unreachable, detail: "\(error)") }
        switch error.code {
        case .timedOut: return RefreshError(url: url, kind: .timedOut)
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return RefreshError(url: url, kind: .redirectLoop)
        // A body cut short (Linux's transport says "transfer closed with N bytes remaining" as `.unknown`).
        case .networkConnectionLost, .unknown: return RefreshError(url: url, kind: .interrupted, detail: error.localizedDescription)
        default: return RefreshError(url: url, kind: .unreachable, detail: error.localizedDescription)
        }
    }

    /// The data task of a fetch, so that cancelling the Swift task cancels it.
    private final class TaskBox: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        func set(_ task: URLSessionDataTask) {
            lock.lock()
            self.task = task
            let cancelled = cancelled
            lock.unlock()
            if cancelled { task.cancel() }
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let task = task
            lock.unlock()
            task?.cancel()
        }
    }
}
