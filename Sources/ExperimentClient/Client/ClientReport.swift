/// Something the app should know about: a fallback to the default, an override, a snapshot not used.
///
/// Each distinct report reaches the delegate once per client.
public enum ClientReport: Hashable, Sendable, CustomStringConvertible {
    /// A value was asked before any snapshot was loaded: the default was served.
    case noSnapshot
    /// A snapshot (at launch from the cache, or a replacement) was not used; the last good one stays.
    case snapshotNotUsed(SnapshotError)
    /// A refresh from a URL failed (timeout, error status, redirect loop, not a snapshot); the current snapshot stays.
    case refreshFailed(RefreshError)
    /// The last good snapshot could not be saved for the next launch.
    case cacheNotWritten(path: String, reason: String)
    /// The snapshot (or the server's answers) has no experiment `key`: the default was served (key not found).
    case keyNotFound(key: String)
    /// The key has no value for the variant served: the default was served (incorrect value).
    case unknownVariant(key: String, variant: String)
    /// The variant's payload does not decode as the key's value: the default was served (incorrect value).
    case undecodablePayload(key: String, variant: String, reason: String)
    /// A QA override decided the value instead of the experiment.
    case overridden(key: String, variant: String)
    /// The sink could not record an exposure (a full disk, an unwritable log): it is lost.
    case exposureNotRecorded(sink: String, reason: String)
    /// A subject id breaks the rules (1–256 characters, no control characters) and is treated as missing.
    case invalidSubjectID(String)

    public var description: String {
        switch self {
        case .noSnapshot: "no snapshot loaded yet; serving defaults"
        case .snapshotNotUsed(let error): error.description
        case .refreshFailed(let error): error.description
        case .cacheNotWritten(let path, let reason): "cannot save the snapshot to \(path) for the next launch: \(reason)"
        case .keyNotFound(let key): "experiment `\(key)` is not in the snapshot or the server's answers; serving its default"
        case .unknownVariant(let key, let variant): "experiment `\(key)` served variant `\(variant)`, which its key does not map; serving its default"
        case .undecodablePayload(let key, let variant, let reason): "the payload of `\(key)` variant `\(variant)` does not decode (\(reason)); serving its default"
        case .overridden(let key, let variant): "experiment `\(key)` is overridden to `\(variant)`"
        case .exposureNotRecorded(let sink, let reason): "an exposure could not be recorded to \(sink): \(reason); it is lost"
        case .invalidSubjectID(let id): "subject id \(id.debugDescription) is not valid (1–256 characters, no control characters); treated as missing"
        }
    }
}

/// Receives the client's reports; called on the thread that caused them, after the client's lock is released.
public protocol ExperimentClientDelegate: AnyObject, Sendable {
    func experimentClient(_ client: ExperimentClient, didReport report: ClientReport)
}
