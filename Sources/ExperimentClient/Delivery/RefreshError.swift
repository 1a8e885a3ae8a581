/// Why a refresh from a URL did not replace the snapshot; the client keeps the one it has.
///
/// Reported to the delegate once per URL and kind (`detail` is left out of equality, so a server
/// that keeps failing the same way is reported once).
public struct RefreshError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL fetched.
    public let url: String
    public let kind: Kind
    /// The transport's own words, when it gave some.
    public let detail: String

    /// The kinds of failure.
    public enum Kind: Hashable, Sendable {
        /// No whole answer within the refresh's deadline (a server sending slowly included).
        case timedOut
        /// The server could not be reached or dropped the connection (the detail says how).
        case unreachable
        /// The answer broke off before its end (a truncated body).
        case interrupted
        /// The server kept redirecting.
        case redirectLoop
        /// An answer other than `200` or `304`.
        case httpStatus(Int)
        /// A `200` whose body (inflated, when sent compressed) is larger than `limit` bytes: not kept.
        case tooLarge(limit: Int)
        /// A `200` whose body is not a usable snapshot (HTML, truncated, another format); the reason says why.
        case notASnapshot(reason: String)
    }

    public init(url: String, kind: Kind, detail: String = "") {
        self.url = url
        self.kind = kind
        self.detail = detail
    }

    public static func == (left: RefreshError, right: RefreshError) -> Bool { left.url == right.url && left.kind == right.kind }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(kind)
    }

    public var description: String { "refresh from \(url) failed: \(problem); keeping the current snapshot" }

    /// What went wrong, in words (`the server answered HTTP 503`).
    public var problem: String {
        switch kind {
        case .timedOut: detail.isEmpty ? "no answer in time" : "no answer in time (\(detail))"
        case .tooLarge(let limit): "the snapshot is larger than the \(RefreshError.size(limit)) limit (raise `maxBytes` if it is meant to be)"
        case .unreachable: detail.isEmpty ? "the server cannot be reached" : "the server cannot be reached (\(detail))"
        case .interrupted: detail.isEmpty ? "the answer broke off" : "the answer broke off (\(detail))"
        case .redirectLoop: "the server redirects in a loop"
        case .httpStatus(let status): "the server answered HTTP \(status)"
        case .notASnapshot(let reason): reason
        }
    }

    /// `bytes` in words: whole MiB when it is a whole number of them, else bytes.
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes)-byte"
    }
}

/// What a refresh did.
public enum RefreshOutcome: Hashable, Sendable {
    /// The server answered `304 Not Modified`: nothing was decoded or written.
    case notModified
    /// The server sent the bytes the client already had: nothing was decoded or written.
    case unchanged
    /// A new snapshot was swapped in (and saved to the cache); these keys' answers changed.
    case replaced(changed: Set<String>)
}
