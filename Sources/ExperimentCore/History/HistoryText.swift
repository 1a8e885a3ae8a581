import Foundation

/// A variant's name and weight as the history writes them: `control=50`.
public struct NamedWeight: Hashable, Sendable {
    public var name: String
    public var weight: Weight

    public init(name: String, weight: Weight) {
        self.name = name
        self.weight = weight
    }
}

/// One side (before or after) of a history entry as a value; `HistoryText` alone turns it into words and back.
public enum HistoryValue: Hashable, Sendable {
    /// `running`: a start's or a pause's status.
    case status(ExperimentStatus)
    /// `control=50,treat=50`: a ramp's weights; an added variant's `name=0`.
    case weights([NamedWeight])
    /// `draft control=50,treat=50`: a create's after, a delete's and a resolve's before.
    case statusWeights(ExperimentStatus, [NamedWeight])
    /// `resolved winner=treat`, with ` (forced past: reasons)` when forced: a resolve's after.
    case resolved(winner: String, forcedPast: String?)
    /// Words kept as written and never read back (salt, description, payload, metrics, whitelist).
    case text(String)
}

/// Which side of a history entry a text is.
public enum HistorySide: String, Hashable, Sendable {
    case before, after
}

/// A history text that does not read as its action's value, naming the entry.
public struct HistoryTextError: Error, Hashable, Sendable {
    /// One sentence: which entry, which side, what was expected and the text.
    public var message: String
}

/// The history's words, formatted and parsed in one place (existing stores hold exactly these texts).
public enum HistoryText {
    /// The words of `value`.
    public static func format(_ value: HistoryValue) -> String {
        switch value {
        case .status(let status): status.rawValue
        case .weights(let weights): weightsText(weights)
        case .statusWeights(let status, let weights): "\(status.rawValue) \(weightsText(weights))"
        case .resolved(let winner, let forced): "resolved winner=\(winner)" + (forced.map { " (forced past: \($0))" } ?? "")
        case .text(let text): text
        }
    }

    /// `text` read as the value `action` writes on `side`; nil when it does not read as one.
    public static func parse(_ text: String, action: HistoryAction, side: HistorySide) -> HistoryValue? {
        switch (action, side) {
        case (.start, _), (.pause, _):
            return ExperimentStatus(rawValue: text).map(HistoryValue.status)
        case (.ramp, _), (.addVariant, .after):
            return weights(text).map(HistoryValue.weights)
        case (.create, .after), (.delete, .before), (.resolve, .before):
            guard let space = text.firstIndex(of: " "), let status = ExperimentStatus(rawValue: String(text[..<space])),
                  let weights = weights(String(text[text.index(after: space)...])) else { return nil }
            return .statusWeights(status, weights)
        case (.resolve, .after):
            return resolved(text)
        default:
            return .text(text)
        }
    }

    /// The value of `entry`'s `side` (nil when the entry has none), or an error naming the entry.
    public static func value(of entry: HistoryEntry, _ side: HistorySide) throws(HistoryTextError) -> HistoryValue? {
        guard let text = side == .before ? entry.before : entry.after else { return nil }
        guard let value = parse(text, action: entry.action, side: side) else {
            throw HistoryTextError(message: "the history entry `\(entry.action.rawValue)` of `\(entry.experiment)` by \(entry.operatorName) at "
                + "\(TimeLabel.utc(entry.at)): its \(side.rawValue) text does not read as \(expected(entry.action, side)): "
                + WhitelistEntry.quoted(text))
        }
        return value
    }

    /// The weights `entry`'s `side` names (a ramp's, an added variant's, a create's), or nil when it names none.
    public static func weights(of entry: HistoryEntry, _ side: HistorySide) throws(HistoryTextError) -> [NamedWeight]? {
        switch try value(of: entry, side) {
        case .weights(let weights)?, .statusWeights(_, let weights)?: weights
        default: nil
        }
    }

    /// `control=50,treat=50`: names and weights in order.
    public static func weightsText(_ weights: [NamedWeight]) -> String {
        weights.map { "\($0.name)=\($0.weight)" }.joined(separator: ",")
    }

    /// What `action` writes on `side`, in words for an error (only the kinds `parse` can refuse).
    private static func expected(_ action: HistoryAction, _ side: HistorySide) -> String {
        switch (action, side) {
        case (.start, _), (.pause, _): "a status (draft, running, paused, resolved)"
        case (.ramp, _), (.addVariant, .after): "weights (name=percent,…)"
        case (.resolve, .after): "a resolution (resolved winner=name)"
        default: "a status and weights (status name=percent,…)"
        }
    }

    /// `a=50,b=12.5` as named weights in order; nil when it is not such a non-empty list of valid names.
    private static func weights(_ text: String) -> [NamedWeight]? {
        var result: [NamedWeight] = []
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, Identifier.isValidName(String(parts[0])),
                  case .success(let weight) = Weight.parse(percent: String(parts[1])) else { return nil }
            result.append(NamedWeight(name: String(parts[0]), weight: weight))
        }
        return result.isEmpty ? nil : result
    }

    /// `resolved winner=treat (forced past: reasons)` as its winner and reasons.
    private static func resolved(_ text: String) -> HistoryValue? {
        let prefix = "resolved winner="
        guard text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        guard let open = rest.range(of: " (forced past: ") else {
            return Identifier.isValidName(String(rest)) ? .resolved(winner: String(rest), forcedPast: nil) : nil
        }
        let winner = String(rest[..<open.lowerBound])
        let reasons = rest[open.upperBound...]
        guard Identifier.isValidName(winner), reasons.hasSuffix(")") else { return nil }
        return .resolved(winner: winner, forcedPast: String(reasons.dropLast()))
    }
}
