/// Why a snapshot was not used; the client keeps the last good one (or the defaults).
public struct SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the bytes came from: a file path, or `data`.
    public let source: String
    /// What is wrong, in words a person can act on.
    public let reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "snapshot \(source) not used: \(reason)" }
}
