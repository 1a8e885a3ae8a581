import ExperimentCore
import Foundation

/// Turns bytes into a validated `ClientSnapshot`: a `--format client` snapshot or a store file.
enum SnapshotLoader {
    /// The snapshot in `data`, or why it cannot be used (`source` names it in the error).
    ///
    /// A valid client snapshot is read in one pass by `ClientSnapshotReader`; anything else (a store
    /// file, a layout or value that reader declines, every bad file) goes through `decodingLoad`,
    /// which decides alike and words every refusal.
    static func load(_ data: Data, source: String) -> Result<ClientSnapshot, SnapshotError> {
        if let snapshot = read(data) { return .success(snapshot) }
        return decodingLoad(data, source: source)
    }

    /// A valid client snapshot as `ClientSnapshotReader` reads it, checked by `StoreValidator` (the
    /// reader checks the whitelist entries as it goes); nil when `decodingLoad` must read the file.
    static func read(_ data: Data) -> ClientSnapshot? {
        guard let reading = ClientSnapshotReader.reading(from: data), reading.format == ClientSnapshotDocument.formatName,
              reading.schemaVersion == StoreSnapshot.currentSchemaVersion,
              StoreValidator.problems(in: StoreDocument(schemaVersion: reading.schemaVersion, revision: reading.revision,
                                                        experiments: reading.experiments, history: [])).isEmpty else { return nil }
        return ClientSnapshot(reading)
    }

    /// `load` through `JSONDecoder` (and the store's reader for a store file): the reference the
    /// one-pass reader is tested against, and the words of every refusal.
    static func decodingLoad(_ data: Data, source: String) -> Result<ClientSnapshot, SnapshotError> {
        func failure(_ reason: String) -> Result<ClientSnapshot, SnapshotError> { .failure(SnapshotError(source: source, reason: reason)) }
        guard !data.isEmpty else { return failure("the file is empty") }
        if data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") {
            return failure("an HTML or XML page, not a snapshot (an error or login page?)")
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            return failure("not a JSON object (truncated or not JSON)")
        }
        if header.format == nil, header.schemaVersion == nil, header.features != nil {
            return failure("this is a GrowthBook export, for GrowthBook SDKs; give the client `abconsole export --format client`")
        }
        guard let format = header.format else {
            do {
                let snapshot = try StoreSnapshot.decode(data, path: source)
                return .success(ClientSnapshot(revision: snapshot.revision, experiments: snapshot.experiments.values))
            } catch {
                guard case .invalid(_, let problems) = error else { return failure(error.message) }
                return failure("not a valid store: " + describe(problems))
            }
        }
        guard format == ClientSnapshotDocument.formatName else { return failure("unknown format `\(format)`") }
        guard header.schemaVersion == StoreSnapshot.currentSchemaVersion else {
            return failure("schema version \(header.schemaVersion.map(String.init) ?? "missing") is not supported; this build reads version \(StoreSnapshot.currentSchemaVersion)")
        }
        let document: ClientSnapshotDocument
        do {
            document = try JSONDecoder().decode(ClientSnapshotDocument.self, from: data)
        } catch {
            return failure("not a valid client snapshot: \(describe(error))")
        }
        if let problem = RepeatedMembers.problem(in: data) { return failure("not a valid client snapshot: \(problem)") }
        for (index, experiment) in document.experiments.enumerated()
        where Set(experiment.whitelist.map { SubjectID($0.subject) }).count != experiment.whitelist.count {
            return failure("inconsistent: $.experiments[\(index)].whitelist lists a subject twice")
        }
        var experiments = document.modelExperiments()
        // Payload numbers as the snapshot writes them (`1.0`), not as `JSONDecoder` reads them (`1`).
        PayloadTexts.restore(&experiments, from: data)
        let problems = StoreValidator.problems(in: StoreDocument(schemaVersion: document.schemaVersion, revision: document.revision,
                                                                 experiments: experiments, history: []))
        guard problems.isEmpty else { return failure("inconsistent: " + describe(problems)) }
        return .success(ClientSnapshot(revision: document.revision, experiments: experiments))
    }

    /// The first problems, then how many more.
    private static func describe(_ problems: [StoreProblem]) -> String {
        let shown = problems.prefix(3).map(\.description).joined(separator: "; ")
        return problems.count > 3 ? "\(shown); and \(problems.count - 3) more" : shown
    }

    /// A decoding error with the JSON path it happened at.
    private static func describe(_ error: any Error) -> String {
        (error as? DecodingError).map(DecodingProblem.text) ?? "\(error)"
    }

    /// Just enough to tell a client snapshot from a store file.
    private struct Header: Decodable {
        var format: String?
        var schemaVersion: Int?
        /// Present in a GrowthBook export (`{"features": …}`).
        var features: Present?

        enum CodingKeys: String, CodingKey {
            case format, features
            case schemaVersion = "schema_version"
        }
    }

    /// Any JSON value, only noted as there.
    private struct Present: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
