import Foundation

extension HistoryEntry: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case at, experiment, action, before, after
        case operatorName = "operator", byMerge = "by_merge"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        at = try container.decodeDate(forKey: .at)
        operatorName = try container.decode(String.self, forKey: .operatorName)
        experiment = try container.decode(String.self, forKey: .experiment)
        action = try container.decode(HistoryAction.self, forKey: .action)
        before = try container.decodeIfPresent(String.self, forKey: .before)
        after = try container.decodeIfPresent(String.self, forKey: .after)
        byMerge = try container.decodeIfPresent(Bool.self, forKey: .byMerge) ?? false
        unknownFields = try decoder.unknownFields(known: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(operatorName, forKey: .operatorName)
        try container.encode(experiment, forKey: .experiment)
        try container.encode(action, forKey: .action)
        try container.encode(before, forKey: .before)
        try container.encode(after, forKey: .after)
        if byMerge { try container.encode(true, forKey: .byMerge) }
        try encoder.encodeUnknown(unknownFields)
    }
}

// MARK: - The fast reader (`StoreReader`)

extension StoreReader {
    /// The texts of the history entry read last, which the next entry reuses while it repeats their bytes.
    struct HistoryTexts {
        var operatorName = RepeatedText(), experiment = RepeatedText(), before = RepeatedText(), after = RepeatedText()
    }

    /// History entries, each text the previous entry's `String` when its bytes repeat (the entries of
    /// one operator's bulk change share operator, before and after), in an array of `capacity`.
    static func readHistoryEntries(_ cursor: inout JSONCursor, reserving capacity: Int) -> [HistoryEntry]? {
        var texts = HistoryTexts()
        return readArray(&cursor, reserving: capacity) { readHistoryEntry(&$0, repeating: &texts) }
    }

    /// One history entry, its operator, experiment, before and after read through `texts`.
    static func readHistoryEntry(_ cursor: inout JSONCursor, repeating texts: inout HistoryTexts) -> HistoryEntry? {
        var at: Date?, operatorName: String?, experiment: String?, action: HistoryAction?, before: String??, after: String??, byMerge: Bool?
        var unknown: [String: JSONValue] = [:]
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "at": return once(&at, date(&cursor))
            case "operator": return once(&operatorName, texts.operatorName.string(&cursor))
            case "experiment": return once(&experiment, texts.experiment.string(&cursor))
            case "action": return once(&action, cursor.string().flatMap(HistoryAction.init(rawValue:)))
            case "before": return once(&before, optionalString(&cursor, repeating: &texts.before))
            case "after": return once(&after, optionalString(&cursor, repeating: &texts.after))
            case "by_merge":
                guard case .bool(let flag)? = cursor.value() else { return false }
                return once(&byMerge, flag)
            default: return keepUnknown(&unknown, field, &cursor)
            }
        }
        guard complete, let at, let operatorName, let experiment, let action else { return nil }
        var entry = HistoryEntry(at: at, operatorName: operatorName, experiment: experiment, action: action,
                                 before: before ?? nil, after: after ?? nil)
        entry.byMerge = byMerge ?? false
        entry.unknownFields = unknown
        return entry
    }
}

// MARK: - Validation (`StoreValidator`)

extension StoreValidator {
    /// The problems of the history entries from `first` on (paths count from the start, after `omitted`
    /// entries that precede `history` in the file).
    static func historyProblems(_ history: [HistoryEntry], from first: Int, after omitted: Int = 0) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        for index in min(max(0, first), history.count)..<history.count where !Identifier.isValidSubject(history[index].operatorName) {
            problems.append(StoreProblem("$.history[\(omitted + index)].operator", "must be 1–256 characters without control characters"))
        }
        return problems
    }
}
