import Foundation

/// One recorded change: when, who, which experiment, what kind, and the state before and after.
public struct HistoryEntry: Hashable, Sendable {
    public var at: Date
    public var operatorName: String
    public var experiment: String
    public var action: HistoryAction
    public var before: String?
    public var after: String?
    /// Whether a merge wrote it (`"by_merge": true`, SPEC §11 rule 4: a `revert` entry explaining a value a side took without one).
    public var byMerge = false
    /// Fields a newer abconsole wrote that this one does not know, by name: kept through every change and merge (SPEC §11 rule 7).
    public var unknownFields: [String: JSONValue] = [:]

    public init(at: Date, operatorName: String, experiment: String, action: HistoryAction, before: String?, after: String?) {
        self.at = at
        self.operatorName = operatorName
        self.experiment = experiment
        self.action = action
        self.before = before
        self.after = after
    }

    /// `before → after` (`∅` for a missing side), as `abconsole history` and the console show it; an
    /// import's `after` names the subjects it added and replaced.
    public var changeText: String { "\(before ?? "∅") → \(after ?? "∅")" }
}

/// The kind of change a history entry records: one this version knows, or a word a newer abconsole
/// wrote, kept as it is so that mixed versions share a store (SPEC §11 rule 7).
public struct HistoryAction: RawRepresentable, Codable, Hashable, Sendable, CaseIterable {
    public let rawValue: String

    /// The action named `rawValue`: any word of `[a-z][a-z0-9_]{0,63}`, known to this version or not.
    public init?(rawValue: String) {
        guard Self.isWord(rawValue.utf8) else { return nil }
        self.rawValue = rawValue
    }

    private init(known rawValue: String) { self.rawValue = rawValue }

    public static let create = HistoryAction(known: "create")
    public static let start = HistoryAction(known: "start")
    public static let pause = HistoryAction(known: "pause")
    public static let ramp = HistoryAction(known: "ramp")
    public static let resolve = HistoryAction(known: "resolve")
    public static let delete = HistoryAction(known: "delete")
    public static let resalt = HistoryAction(known: "resalt")
    public static let addVariant = HistoryAction(known: "add_variant")
    public static let setPayload = HistoryAction(known: "set_payload")
    public static let setDescription = HistoryAction(known: "set_description")
    public static let setMetrics = HistoryAction(known: "set_metrics")
    public static let whitelistAdd = HistoryAction(known: "whitelist_add")
    public static let whitelistRemove = HistoryAction(known: "whitelist_remove")
    public static let whitelistImport = HistoryAction(known: "whitelist_import")
    /// A merge took a side's value that no entry of that side explains (SPEC §11 rule 4); written by the merge.
    public static let revert = HistoryAction(known: "revert")
    /// The console's conflicts screen kept OURS's value of a conflict: before = THEIRS's declined words, after = OURS's kept ones.
    public static let keep = HistoryAction(known: "keep")
    /// A ramp plan set (SPEC §14): before/after are the plans' summaries.
    public static let planSet = HistoryAction(known: "plan_set")
    public static let planClear = HistoryAction(known: "plan_clear")
    public static let planPause = HistoryAction(known: "plan_pause")
    public static let planResume = HistoryAction(known: "plan_resume")
    /// A plan moved to its next step (its `ramp` entry follows): the steps and the evidence.
    public static let advance = HistoryAction(known: "advance")
    /// A plan ramped back to the weights it started from (its `ramp` entry follows), with the reason.
    public static let rollback = HistoryAction(known: "rollback")

    /// The actions this version records.
    public static let allCases: [HistoryAction] = [.create, .start, .pause, .ramp, .resolve, .delete, .resalt, .addVariant, .setPayload,
                                                   .setDescription, .setMetrics, .whitelistAdd, .whitelistRemove, .whitelistImport,
                                                   .revert, .keep, .planSet, .planClear, .planPause, .planResume, .advance, .rollback]

    /// Whether this version records this action (a newer abconsole may write others).
    public var isKnown: Bool { Self.allCases.contains(self) }

    /// Whether `bytes` spell an action word: `[a-z][a-z0-9_]{0,63}`.
    package static func isWord<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let action = HistoryAction(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "`\(text)` is not an action word (lower-case letters, digits and `_`, starting with a letter)"))
        }
        self = action
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
