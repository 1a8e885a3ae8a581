import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of one snapshot fetch: collects the body up to a cap and ends the fetch at its
/// deadline, the first of completion, cap, deadline or cancellation deciding the outcome.
///
/// The outcome is handed over once, through a continuation, the moment it is known: a deadline or
/// a cap does not wait for the transport to wind the transfer down (it is cancelled, off the
/// delegate queue, and whatever it says afterwards is ignored).
/// `@unchecked Sendable`: its `var`s are touched only under `lock`.
final class SnapshotTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Outcome = Result<(Data, URLResponse), RefreshError>

    private let url: String
    private let maxBytes: Int
    private let lock = NSLock()
    private var body = Data()
    private var response: URLResponse?
    private var task: URLSessionDataTask?
    private var continuation: CheckedContinuation<Outcome, Never>?
    /// The outcome decided before `start` handed over its continuation (a cancellation that came first).
    private var early: Outcome?
    private var finished = false

    init(url: String, maxBytes: Int) {
        self.url = url
        self.maxBytes = maxBytes
    }

    /// Starts `task`, ending it `deadline` seconds from now at the latest.
    func start(_ task: URLSessionDataTask, deadline: TimeInterval, _ continuation: CheckedContinuation<Outcome, Never>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(returning: early)
            return
        }
        self.task = task
        self.continuation = continuation
        lock.unlock()
        let seconds = deadline
        DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0)) { [weak self] in
            guard let self else { return }
            self.stop(SnapshotFetcher.timedOut(self.url, deadline: seconds))
        }
        task.resume()
    }

    /// Ends the fetch with `error` unless it has ended already, and cancels the transfer.
    func stop(_ error: RefreshError) {
        finish(.failure(error))
    }

    /// Hands `outcome` over once; the transfer, if still running, is cancelled.
    private func finish(_ outcome: Outcome) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        finished = true
        let continuation = continuation
        let task = task
        self.continuation = nil
        body = Data()
        if continuation == nil { early = outcome }
        lock.unlock()
        continuation?.resume(returning: outcome)
        // Cancelling takes the session's own queue: never from one of its callbacks.
        if let task { DispatchQueue.global().async { task.cancel() } }
    }

    private var tooLarge: RefreshError { RefreshError(url: url, kind: .tooLarge(limit: maxBytes)) }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        self.response = response
        lock.unlock()
        // A declared length past the cap ends it before any of the body comes (with gzip it is the
        // compressed length: the inflated bytes are counted as they arrive).
        if (response as? HTTPURLResponse)?.statusCode == 200, response.expectedContentLength > Int64(maxBytes) {
            completionHandler(.cancel)
            finish(.failure(tooLarge))
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        guard body.count + data.count <= maxBytes else {
            lock.unlock()
            finish(.failure(tooLarge))
            return
        }
        body.append(data)
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let collected = (body, response)
        lock.unlock()
        if let error {
            finish(.failure(Self.failure(error, url: url)))
        } else if let response = collected.1 {
            finish(.success((collected.0, response)))
        } else {
            finish(.failure(RefreshError(url: url, kind: .unreachable, detail: "no response")))
        }
    }

    /// Redirects are followed (a loop ends in the transport's own error).
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(request)
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
}
