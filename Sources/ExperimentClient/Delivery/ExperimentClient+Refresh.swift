import ExperimentCore
import Foundation

extension ExperimentClient {
    /// Fetches the snapshot at `url` (HTTP or HTTPS; a `--format client` export or a store file),
    /// and swaps it in when it is new.
    ///
    /// Asks with `If-None-Match` and `If-Modified-Since` (the last good answer's `ETag` and
    /// `Last-Modified`) when the snapshot in use came from `url`: a `304`, or a `200` with the same
    /// bytes, changes nothing and decodes nothing. A new snapshot is validated, saved to the cache
    /// (with its validators beside it, so the next launch can ask conditionally too), swapped in,
    /// and observers hear which keys changed. Any failure (no whole answer by the deadline, an
    /// error status, a redirect loop, a body over `maxBytes`, an HTML page, a truncated or
    /// other-format body) keeps the current snapshot, is reported to the delegate once per kind and
    /// is thrown. The network, decoding and file work run on the caller's task, never under the
    /// lock `value(for:)` takes.
    ///
    /// - Parameters:
    ///   - timeout: the deadline of the whole fetch, in seconds: a server that answers slowly or
    ///     sends its body a byte at a time is given up at this point, not only one that goes silent.
    ///   - maxBytes: the largest body kept, counted after gzip inflation (`defaultMaxSnapshotBytes`,
    ///     128 MiB): a larger one is dropped as it arrives, so memory stays near this bound.
    @discardableResult
    public func refresh(from url: URL, timeout: TimeInterval = 30,
                        maxBytes: Int = ExperimentClient.defaultMaxSnapshotBytes) async throws(RefreshError) -> RefreshOutcome {
        let source = url.absoluteString
        let validators = replacementLock.withLock {
            delivery.restore(cacheURL)
            guard let origin = delivery.origin, origin.url == source, snapshotRevision != nil else { return SnapshotFetcher.Validators() }
            return origin.validators
        }
        do throws(RefreshError) {
            switch try await SnapshotFetcher.fetch(url, validators: validators, deadline: timeout, maxBytes: maxBytes) {
            case .notModified:
                return .notModified
            case .body(let data, let newValidators):
                let same = replacementLock.withLock {
                    guard let origin = delivery.origin, origin.url == source, origin.data == data else { return false }
                    delivery.origin = DeliveryState.Origin(url: source, validators: newValidators, data: data)
                    return true
                }
                if same { return .unchanged }
                switch SnapshotLoader.load(data, source: source) {
                case .failure(let error):
                    throw RefreshError(url: source, kind: .notASnapshot(reason: error.reason))
                case .success(let snapshot):
                    let origin = DeliveryState.Origin(url: source, validators: newValidators, data: data)
                    return .replaced(changed: replacementLock.withLock { install(snapshot, data: data, origin: origin) })
                }
            }
        } catch {
            deliver(lock.withLock { fresh([.refreshFailed(error)]) })
            throw error
        }
    }

    /// Refreshes from `url` now and then every `interval` seconds (at least 1) in the background,
    /// until `stopRefreshing()` or the client goes away; replaces any refreshing started before.
    /// Failures are reported to the delegate (once per kind) and the next round tries again.
    public func startRefreshing(from url: URL, every interval: TimeInterval, timeout: TimeInterval = 30,
                                maxBytes: Int = ExperimentClient.defaultMaxSnapshotBytes) {
        let pause = UInt64(max(interval, 1) * 1_000_000_000)
        let task = Task.detached(priority: .utility) { [weak self] in
            while !Task.isCancelled {
                do {
                    guard let client = self else { return }
                    _ = try? await client.refresh(from: url, timeout: timeout, maxBytes: maxBytes)
                }
                try? await Task.sleep(nanoseconds: pause)
            }
        }
        delivery.replaceTask(task)
    }

    /// The largest snapshot body `refresh` keeps unless told otherwise: 128 MiB, over twice a
    /// client export of 10,000 experiments with a million whitelist entries (48 MiB).
    public static let defaultMaxSnapshotBytes = 128 << 20

    /// Stops the refreshing `startRefreshing` began.
    public func stopRefreshing() { delivery.replaceTask(nil) }

    /// Saves `snapshot` (its bytes `data`) to the cache and swaps it in (the replacement lock held).
    ///
    /// The validators file goes first and comes back last, so a crash in between leaves no
    /// validators for a cache they do not describe (the next launch then fetches in full). The
    /// server's answers of remote mode, if cached, are removed first: the cache holds one source.
    func install(_ snapshot: ClientSnapshot, data: Data, origin: DeliveryState.Origin?) -> Set<String> {
        var reports: [ClientReport] = []
        delivery.restored = true
        delivery.origin = origin
        if let cacheURL {
            let etagURL = DeliveryState.etagURL(cacheURL)
            try? FileManager.default.removeItem(at: etagURL)
            try? FileManager.default.removeItem(at: RemoteAnswers.cacheURL(cacheURL))
            do {
                try data.write(to: cacheURL, options: .atomic)
                if let origin, origin.validators != SnapshotFetcher.Validators() {
                    let lines = [origin.url, origin.validators.etag ?? "", origin.validators.lastModified ?? ""]
                    if !lines.contains(where: { $0.contains("\n") }) {
                        try? Data((lines.joined(separator: "\n") + "\n").utf8).write(to: etagURL, options: .atomic)
                    }
                }
            } catch {
                reports.append(.cacheNotWritten(path: cacheURL.path, reason: FileErrorReason.of(error, path: cacheURL.path)))
            }
        }
        return mutate(reports: reports) {
            $0.snapshot = snapshot
            $0.remote = nil
        }
    }
}
