import Foundation

/// A subject forced into a variant, with who added it, when and why.
public struct WhitelistEntry: Hashable, Sendable {
    public var subject: String
    public var variant: String
    public var note: String
    public var addedBy: String
    public var addedAt: Date
    /// Fields a newer abconsole wrote that this one does not know, by name: kept through every change and merge (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    public init(subject: String, variant: String, note: String, addedBy: String, addedAt: Date) {
        self.subject = subject
        self.variant = variant
        self.note = note
        self.addedBy = addedBy
        self.addedAt = addedAt
    }
}
