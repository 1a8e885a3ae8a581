import Foundation

/// The file `abconsole export --format client` writes and the client reads: experiments, variants,
/// ranges, payloads and whitelisted subjects, without history, notes, descriptions or operator names.
///
/// `{"format":"abconsole-client","schema_version":1,"revision":N,"experiments":[{"key","type","status",
/// "salt","control","winner","variants":[{"name","weight","ranges","payload"}],"whitelist":[{"subject","variant"}]}]}`
package struct ClientSnapshotDocument: Codable, Sendable {
    /// The `format` marker that tells this file from a store file.
    package static let formatName = "abconsole-client"

    var format: String
    package var schemaVersion: Int
    package var revision: Int
    package var experiments: [ClientExperiment]

    enum CodingKeys: String, CodingKey {
        case format, revision, experiments
        case schemaVersion = "schema_version"
    }

    /// The client's view of a validated store: experiments by key, whitelists by subject.
    package init(_ snapshot: StoreSnapshot) {
        format = Self.formatName
        schemaVersion = StoreSnapshot.currentSchemaVersion
        revision = snapshot.revision
        experiments = snapshot.sortedExperiments.map(ClientExperiment.init)
    }

    /// Deterministic bytes: compact JSON with sorted keys and a final newline.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `</` written `<\/`, so the snapshot can be inlined in HTML.
        return HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(self, with: encoder)) + Data("\n".utf8)
    }

    /// The experiments as the core models them (dates, descriptions and notes left empty).
    package func modelExperiments() -> [Experiment] { experiments.map(\.model) }
}

/// One experiment of a client snapshot.
package struct ClientExperiment: Codable, Sendable {
    var key: String
    var type: SubjectType
    var status: ExperimentStatus
    var salt: String
    var control: String
    var winner: String?
    var variants: [Variant]
    package var whitelist: [ClientWhitelistEntry]

    init(_ experiment: Experiment) {
        key = experiment.key
        type = experiment.type
        status = experiment.status
        salt = experiment.salt
        control = experiment.control
        winner = experiment.winner
        variants = experiment.variants
        whitelist = experiment.sortedWhitelist.map { ClientWhitelistEntry(subject: $0.subject, variant: $0.variant) }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        type = try container.decode(SubjectType.self, forKey: .type)
        status = try container.decode(ExperimentStatus.self, forKey: .status)
        salt = try container.decode(String.self, forKey: .salt)
        control = try container.decode(String.self, forKey: .control)
        winner = try container.decodeIfPresent(String.self, forKey: .winner)
        variants = try container.decode([Variant].self, forKey: .variants)
        whitelist = try container.decode([ClientWhitelistEntry].self, forKey: .whitelist)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(type, forKey: .type)
        try container.encode(status, forKey: .status)
        try container.encode(salt, forKey: .salt)
        try container.encode(control, forKey: .control)
        try container.encode(winner, forKey: .winner)
        try container.encode(variants, forKey: .variants)
        try container.encode(whitelist, forKey: .whitelist)
    }

    enum CodingKeys: String, CodingKey { case key, type, status, salt, control, winner, variants, whitelist }

    /// The core's experiment (see `ClientSnapshotReader.model`).
    var model: Experiment {
        var entries = [SubjectID: WhitelistEntry](minimumCapacity: whitelist.count)
        let epoch = Date(timeIntervalSince1970: 0)
        for entry in whitelist {
            entries[SubjectID(entry.subject)] = WhitelistEntry(subject: entry.subject, variant: entry.variant, note: "", addedBy: "", addedAt: epoch)
        }
        return ClientSnapshotReader.model(key: key, type: type, status: status, salt: salt, control: control, winner: winner,
                                          variants: variants, whitelist: entries)
    }
}

/// A whitelisted subject and its variant, nothing more.
package struct ClientWhitelistEntry: Codable, Sendable {
    package var subject: String
    var variant: String

    enum CodingKeys: String, CodingKey { case subject, variant }
}
