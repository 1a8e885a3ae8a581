import Foundation

extension HistoryEntry: Codable {
    enum CodingKeys: String, CodingKey {
        case at, experiment, action, before, after
        case operatorName = "operator"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        at = try container.decodeDate(forKey: .at)
        operatorName = try container.decode(String.self, forKey: .operatorName)
        experiment = try container.decode(String.self, forKey: .experiment)
        action = try container.decodeChoice(HistoryAction.self, forKey: .action)
        before = try container.decodeIfPresent(String.self, forKey: .before)
        after = try container.decodeIfPresent(String.self, forKey: .after)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(operatorName, forKey: .operatorName)
        try container.encode(experiment, forKey: .experiment)
        try container.encode(action, forKey: .action)
        try container.encode(before, forKey: .before)
        try container.encode(after, forKey: .after)
    }
}
