import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends exposures to `abconsole serve` (`POST /v1/exposures`, a JSON array of SPEC §8 rows) in
/// batches, keeping every unsent row in a file so none is lost when the app ends first.
///
/// `record` only queues (memory and file, never the network). Rows go out `sendAfter` seconds
/// later in the background, or at once with `flush()`. A failed send (no answer, `5xx`, `401`,
/// `429`…) keeps its rows and waits longer before the next background try: 1 s, 2 s, 4 s… up to
/// 5 minutes, back to none after a success. Rows the server refuses (`rejected` in its answer, or
/// a batch answered `400`/`413`/`422`) would be refused again: they are dropped, counted and
/// reported. The queue holds at most `capacity` rows; a row past that is dropped, counted and
/// reported. Thread-safe; sends never overlap.
/// `@unchecked Sendable`: its `var`s are touched only under `lock`, and `gate` lets one send through at a time.
public final class HTTPExposureSink: ExposureSink, @unchecked Sendable {
    /// Where batches are posted (the server's URL + `v1/exposures`).
    public let endpoint: URL
    private let token: String?
    private let batchSize: Int
    private let capacity: Int
    private let sendAfter: TimeInterval?
    private let timeout: TimeInterval
    private let lock = ClientLock()
    private let gate = SendGate()
    private var queue: ExposureQueue
    private var droppedCount: Int
    private var failuresInARow = 0
    private var scheduled = false
    private var reporter: (@Sendable (String) -> Void)?

    /// The longest wait between background tries.
    public static let maxRetryDelay: TimeInterval = 300

    /// A sink posting to `server` (its base URL), with unsent rows kept in `queueFile`.
    ///
    /// - Parameters:
    ///   - token: sent as `Authorization: Bearer TOKEN`.
    ///   - queueFile: the JSON Lines file of unsent rows (in the app's files, e.g. beside the
    ///     snapshot cache); rows left there by an earlier launch are sent first.
    ///   - capacity: the most rows kept unsent; more are dropped and counted.
    ///   - batchSize: the most rows in one request.
    ///   - sendAfter: seconds from a `record` to the background send; nil sends only on `flush()`.
    ///   - timeout: each request's deadline in seconds.
    public init(server: URL, token: String? = nil, queueFile: URL, capacity: Int = 10_000, batchSize: Int = 500,
                sendAfter: TimeInterval? = 5, timeout: TimeInterval = 30) {
        endpoint = server.appendingPathComponent("v1/exposures")
        self.token = token
        self.batchSize = max(batchSize, 1)
        self.sendAfter = sendAfter
        self.timeout = timeout
        self.capacity = max(capacity, 1)
        queue = ExposureQueue(file: queueFile, capacity: self.capacity)
        droppedCount = queue.discarded
        if !queue.rows.isEmpty { scheduleSend() }
    }

    public func record(_ exposure: Exposure) {
        _ = recordReportingFailure(exposure)
    }

    /// Queues the exposure; when the queue is full it is dropped, counted, and the reason returned.
    public func recordReportingFailure(_ exposure: Exposure) -> String? {
        let full = lock.withLock {
            guard !queue.isFull else {
                droppedCount += 1
                return true
            }
            _ = queue.append(exposure.jsonLine)
            return false
        }
        if full { return "the queue of unsent exposures is full (\(capacity) rows the server has not taken yet)" }
        scheduleSend()
        return nil
    }

    public func reportLosses(to report: @escaping @Sendable (String) -> Void) {
        lock.withLock { reporter = report }
    }

    /// Rows waiting to be sent.
    public var pending: Int { lock.withLock { queue.rows.count } }

    /// Rows dropped: past the capacity, refused by the server, or unreadable in the queue file.
    public var dropped: Int { lock.withLock { droppedCount } }

    /// How long the background sender waits before its next try: 0 after a success, doubling
    /// from 1 s with each failure in a row up to `maxRetryDelay`.
    public var retryDelay: TimeInterval { lock.withLock { Self.delay(afterFailures: failuresInARow) } }

    /// Sends every queued row now, batch after batch, whatever the backoff says.
    /// - Returns: the rows the server accepted.
    /// - Throws: the first failed send's error; its rows (and those after) stay queued.
    @discardableResult
    public func flush() async throws(ExposureSendError) -> Int {
        await gate.enter()
        defer { gate.leave() }
        var accepted = 0
        while true {
            let batch = lock.withLock { Array(queue.rows.prefix(batchSize)) }
            guard !batch.isEmpty else { return accepted }
            accepted += try await send(batch)
        }
    }

    /// Posts `batch` (the queue's first rows) and removes what the server took or refused for good.
    private func send(_ batch: [String]) async throws(ExposureSendError) -> Int {
        var request = URLRequest(url: endpoint, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(("[" + batch.joined(separator: ",") + "]").utf8)
        let status: Int
        let body: Data
        do {
            let (data, response) = try await SnapshotFetcher.send(request, deadline: timeout, maxBytes: 1 << 20)
            (status, body) = ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            throw failed(error)
        }
        switch status {
        case 200..<300:
            let answer = try? JSONDecoder().decode(Answer.self, from: body)
            let refused = answer?.rejected ?? []
            finish(batch.count, dropping: refused.count, because: refused.first.map { "the server refused it (\($0.reason))" })
            return batch.count - refused.count
        case 400, 413, 422:
            finish(batch.count, dropping: batch.count, because: "the server refused its batch (HTTP \(status))")
            return 0
        default:
            throw failed(RefreshError(url: endpoint.absoluteString, kind: .httpStatus(status)))
        }
    }

    /// Removes `count` sent rows, `dropping` of them refused for `reason`, and clears the backoff.
    private func finish(_ count: Int, dropping: Int, because reason: String?) {
        let report = lock.withLock {
            queue.removeFirst(count)
            droppedCount += dropping
            failuresInARow = 0
            return dropping > 0 ? reporter : nil
        }
        if let report, let reason { report(reason) }
    }

    /// Counts a failed send and says why, with the rows kept.
    private func failed(_ error: RefreshError) -> ExposureSendError {
        let kept = lock.withLock {
            failuresInARow += 1
            return queue.rows.count
        }
        return ExposureSendError(endpoint: endpoint.absoluteString, reason: error.problem, kept: kept)
    }

    /// Starts the background send unless one is on its way or sending is left to `flush()`.
    private func scheduleSend() {
        guard let sendAfter else { return }
        let wait: TimeInterval? = lock.withLock {
            guard !scheduled, !queue.rows.isEmpty else { return nil }
            scheduled = true
            return max(sendAfter, Self.delay(afterFailures: failuresInARow))
        }
        guard let wait else { return }
        Task.detached(priority: .utility) { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            guard let self else { return }
            _ = try? await self.flush()
            self.lock.withLock { self.scheduled = false }
            self.scheduleSend()
        }
    }

    /// The backoff after `failures` failed sends in a row.
    static func delay(afterFailures failures: Int) -> TimeInterval {
        failures == 0 ? 0 : min(pow(2, Double(min(failures, 30) - 1)), maxRetryDelay)
    }

    /// The server's answer: `{"accepted":N,"rejected":[{"index":I,"reason":"…"}]}`.
    private struct Answer: Decodable {
        let rejected: [Rejection]?
        struct Rejection: Decodable {
            let reason: String
        }
    }
}

/// Why a batch of exposures was not sent; its rows stay queued for the next try.
public struct ExposureSendError: Error, Hashable, Sendable, CustomStringConvertible {
    public let endpoint: String
    public let reason: String
    /// Rows still queued.
    public let kept: Int

    public var description: String { "sending exposures to \(endpoint) failed: \(reason); \(kept) rows kept to send later" }
}
