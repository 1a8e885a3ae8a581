import Foundation

/// Foundation's JSON coding of the store: the fallback reader, and the layout earlier builds wrote.
package enum StoreCoding {
    /// Foundation's pretty-printed layout with sorted keys, as stores were written before
    /// `StoreWriter`; tests use it to check such stores still read the same.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The decoder `StoreFile` falls back to when `StoreReader` defers (ISO 8601 dates).
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The JSON path of a coding path, e.g. `$.experiments[2].variants[0].weight`.
    package static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(key.stringValue)"
        }
    }
}

/// The store file's top level, experiments in file order (for JSON paths) and sorted when written.
package struct StoreDocument: Codable {
    package var schemaVersion: Int
    package var revision: Int
    package var experiments: [Experiment]
    package var history: [HistoryEntry]
    /// Top-level fields this build does not know (SPEC §11 rule 7).
    package var unknownFields: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion = "schema_version", revision, experiments, history
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        revision = try container.decode(Int.self, forKey: .revision)
        experiments = try container.decode([Experiment].self, forKey: .experiments)
        history = try container.decode([HistoryEntry].self, forKey: .history)
        unknownFields = try decoder.unknownFields(known: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(revision, forKey: .revision)
        try container.encode(experiments, forKey: .experiments)
        try container.encode(history, forKey: .history)
        try encoder.encodeUnknown(unknownFields)
    }

    package init(schemaVersion: Int, revision: Int, experiments: [Experiment], history: [HistoryEntry]) {
        self.schemaVersion = schemaVersion
        self.revision = revision
        self.experiments = experiments
        self.history = history
    }

    package init(_ snapshot: StoreSnapshot) {
        schemaVersion = snapshot.schemaVersion
        revision = snapshot.revision
        experiments = snapshot.sortedExperiments
        history = snapshot.history
        unknownFields = snapshot.unknownFields
    }
}

/// Just the schema version, read when the full document does not decode, to explain why.
struct StoreHeader: Decodable {
    var schemaVersion: Int?

    enum CodingKeys: String, CodingKey { case schemaVersion = "schema_version" }
}

extension KeyedDecodingContainer {
    /// An ISO 8601 date; when it is not one, the error's path names the field, not only its parent.
    ///
    /// Foundation rolls impossible fields over (2026-02-30 reads as March 2): those are refused.
    func decodeDate(forKey key: Key) throws -> Date {
        if let text = try? decode(String.self, forKey: key), !StoreDate.isPossible(text) {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "`\(text)` is not a real date and time")
        }
        do {
            return try decode(Date.self, forKey: key)
        } catch DecodingError.dataCorrupted {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected an ISO 8601 date such as 2026-01-31T09:30:00Z")
        }
    }
}

extension KeyedDecodingContainer {
    /// One of a fixed set of words (a status, a type); an unknown word names the allowed ones.
    func decodeChoice<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type, forKey key: Key) throws -> Choice
    where Choice.RawValue == String {
        let text = try decode(String.self, forKey: key)
        guard let choice = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "`\(text)` is not one of \(allowed)")
        }
        return choice
    }
}
