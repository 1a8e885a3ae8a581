import Foundation

extension WhitelistEntry: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
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
        unknownFields = try decoder.unknownFields(known: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject, forKey: .subject)
        try container.encode(variant, forKey: .variant)
        try container.encode(note, forKey: .note)
        try container.encode(addedBy, forKey: .addedBy)
        try container.encode(addedAt, forKey: .addedAt)
        try encoder.encodeUnknown(unknownFields)
    }
}

// MARK: - The fast reader (`StoreReader`)

extension StoreReader {
    static func readWhitelistEntry(_ cursor: inout JSONCursor) -> WhitelistEntry? {
        var subject: String?, variant: String?, note: String?, addedBy: String?, addedAt: Date?
        var unknown: [String: JSONValue] = [:]
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {  // in the order the writer puts them
            case "added_at": return once(&addedAt, date(&cursor))
            case "added_by": return once(&addedBy, cursor.string())
            case "note": return once(&note, cursor.string())
            case "subject": return once(&subject, cursor.string())
            case "variant": return once(&variant, cursor.string())
            default: return keepUnknown(&unknown, field, &cursor)
            }
        }
        guard complete, let subject, let variant, let note, let addedBy, let addedAt else { return nil }
        var entry = WhitelistEntry(subject: subject, variant: variant, note: note, addedBy: addedBy, addedAt: addedAt)
        entry.unknownFields = unknown
        return entry
    }
}

// MARK: - Validation (`StoreValidator`)

extension StoreValidator {
    /// The entries naming an invalid subject or a missing variant, in subject order.
    static func whitelistProblems(_ whitelist: [SubjectID: WhitelistEntry], variants names: [String], at path: String) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        // Check every entry in storage order and sort only the faulty ones, for messages in subject order.
        let faulty = whitelist.values.filter { !Identifier.isValidSubject($0.subject) || !names.contains($0.variant) }
        for entry in SubjectOrder.sorted(faulty) {
            let entryPath = "\(path).whitelist[subject=\(quoted(entry.subject))]"
            if !Identifier.isValidSubject(entry.subject) {
                problems.append(StoreProblem(entryPath + ".subject", "must be 1–256 characters without control characters"))
            }
            if !names.contains(entry.variant) { problems.append(StoreProblem(entryPath + ".variant", "`\(entry.variant)` is not one of the variants")) }
        }
        return problems
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { Identifier.isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }
}
