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

/// The kinds of change the history records.
public enum HistoryAction: String, Codable, Hashable, Sendable, CaseIterable {
    case create, start, pause, ramp, resolve, delete, resalt
    case addVariant = "add_variant"
    case setPayload = "set_payload"
    case setDescription = "set_description"
    case setMetrics = "set_metrics"
    case whitelistAdd = "whitelist_add"
    case whitelistRemove = "whitelist_remove"
    case whitelistImport = "whitelist_import"
    /// A merge took a side's value that no entry of that side explains (SPEC §11 rule 4); written by the merge.
    case revert
}
