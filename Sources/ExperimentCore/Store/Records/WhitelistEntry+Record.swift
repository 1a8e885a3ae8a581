import Foundation

extension WhitelistEntry: Codable {
    enum CodingKeys: String, CodingKey {
        case subject, variant, note
        case addedBy = "added_by", addedAt = "added_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subject = try container.decode(String.self, forKey: .subject)
        variant = try container.decode(String.self, forKey: .variant)
        note = try container.decode(String.self, forKey: .note)
        addedBy = try container.decode(String.self, forKey: .addedBy)
        addedAt = try container.decodeDate(forKey: .addedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject, forKey: .subject)
        try container.encode(variant, forKey: .variant)
        try container.encode(note, forKey: .note)
        try container.encode(addedBy, forKey: .addedBy)
        try container.encode(addedAt, forKey: .addedAt)
    }
}
