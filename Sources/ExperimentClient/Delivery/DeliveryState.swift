import Foundation

/// Where the snapshot in use came from (URL, validators, bytes) and the background refresh task.
///
/// Guarded by the client's replacement lock, except `task`, which has a lock of its own.
/// `@unchecked Sendable`: `origin` and `restored` only under the client's replacement lock, `task` only under `taskLock`.
final class DeliveryState: @unchecked Sendable {
    /// The URL, validators and bytes of the snapshot in use, when it came from a refresh (or from a
    /// cache whose validators were saved beside it).
    var origin: Origin?
    /// Whether the validators saved beside the cache were looked at yet (once, at the first refresh).
    var restored = false
    private let taskLock = NSLock()
    private var task: Task<Void, Never>?

    struct Origin {
        let url: String
        let validators: SnapshotFetcher.Validators
        /// Nil for a snapshot read from the cache at launch (its bytes were not kept).
        let data: Data?
    }

    /// The validators file beside the cache: `URL`, `ETag` and `Last-Modified`, one a line (either may be empty).
    static func etagURL(_ cacheURL: URL) -> URL { URL(fileURLWithPath: cacheURL.path + ".etag") }

    /// The origin saved beside `cacheURL`, if any (read once).
    func restore(_ cacheURL: URL?) {
        guard !restored else { return }
        restored = true
        guard let cacheURL, let text = try? String(contentsOf: Self.etagURL(cacheURL), encoding: .utf8) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, !lines[0].isEmpty else { return }
        let validators = SnapshotFetcher.Validators(etag: lines[1].isEmpty ? nil : lines[1],
                                                    lastModified: lines.count > 2 && !lines[2].isEmpty ? lines[2] : nil)
        guard validators.etag != nil || validators.lastModified != nil else { return }
        origin = Origin(url: lines[0], validators: validators, data: nil)
    }

    /// Replaces the background task, cancelling the one before.
    func replaceTask(_ next: Task<Void, Never>?) {
        taskLock.lock()
        let previous = task
        task = next
        taskLock.unlock()
        previous?.cancel()
    }

    deinit { task?.cancel() }
}
