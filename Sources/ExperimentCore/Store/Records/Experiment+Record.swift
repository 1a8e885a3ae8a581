import Foundation

extension Experiment: Codable {
    enum CodingKeys: String, CodingKey {
        case key, type, status, salt, control, winner, description, revision, variants, whitelist
        case createdAt = "created_at", updatedAt = "updated_at", updatedBy = "updated_by"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        type = try container.decodeChoice(SubjectType.self, forKey: .type)
        status = try container.decodeChoice(ExperimentStatus.self, forKey: .status)
        salt = try container.decode(String.self, forKey: .salt)
        control = try container.decode(String.self, forKey: .control)
        winner = try container.decodeIfPresent(String.self, forKey: .winner)
        description = try container.decode(String.self, forKey: .description)
        revision = try container.decode(Int.self, forKey: .revision)
        createdAt = try container.decodeDate(forKey: .createdAt)
        updatedAt = try container.decodeDate(forKey: .updatedAt)
        updatedBy = try container.decode(String.self, forKey: .updatedBy)
        variants = try container.decode([Variant].self, forKey: .variants)
        let entries = try container.decode([WhitelistEntry].self, forKey: .whitelist)
        var whitelist: [SubjectID: WhitelistEntry] = [:]
        whitelist.reserveCapacity(entries.count)
        for entry in entries where whitelist.updateValue(entry, forKey: SubjectID(entry.subject)) != nil {
            throw DecodingError.dataCorruptedError(forKey: .whitelist, in: container,
                                                   debugDescription: "subject `\(entry.subject)` is listed twice")
        }
        self.whitelist = whitelist
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(type, forKey: .type)
        try container.encode(status, forKey: .status)
        try container.encode(salt, forKey: .salt)
        try container.encode(control, forKey: .control)
        try container.encode(winner, forKey: .winner)
        try container.encode(description, forKey: .description)
        try container.encode(revision, forKey: .revision)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(updatedBy, forKey: .updatedBy)
        try container.encode(variants, forKey: .variants)
        try container.encode(sortedWhitelist, forKey: .whitelist)
    }
}
