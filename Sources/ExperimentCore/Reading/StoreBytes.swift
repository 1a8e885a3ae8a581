import Foundation

/// Reads a store file's bytes into a validated snapshot without touching the file system: the
/// read side that apps and services use (the client library reads a store file this way).
package enum StoreBytes {
    /// The validated snapshot in `data`, or every problem that makes it unusable (with JSON paths).
    package static func snapshot(from data: Data) -> Result<StoreSnapshot, StoreProblems> {
        let document: StoreDocument
        if let read = StoreReader.document(from: data) {
            document = read
        } else {
            do {
                document = try StoreCoding.decoder().decode(StoreDocument.self, from: data)
            } catch {
                return .failure(StoreProblems([problem(decoding: error, data: data)]))
            }
        }
        let problems = StoreValidator.problems(in: document)
        guard problems.isEmpty else { return .failure(StoreProblems(problems)) }
        var experiments: [String: Experiment] = [:]
        experiments.reserveCapacity(document.experiments.count)
        for experiment in document.experiments { experiments[experiment.key] = experiment }
        return .success(StoreSnapshot(schemaVersion: document.schemaVersion, revision: document.revision,
                                      experiments: experiments, history: document.history))
    }

    /// Every rule of SPEC §1–§4 that `experiments` (in this order, for the paths) break.
    package static func problems(in experiments: [Experiment], revision: Int) -> [StoreProblem] {
        StoreValidator.problems(in: StoreDocument(schemaVersion: StoreSnapshot.currentSchemaVersion, revision: revision,
                                                  experiments: experiments, history: []))
    }

    /// The decoding error as one problem with its JSON path, naming an unsupported schema version first.
    private static func problem(decoding error: any Error, data: Data) -> StoreProblem {
        if let header = try? JSONDecoder().decode(StoreHeader.self, from: data),
           let version = header.schemaVersion, version != StoreSnapshot.currentSchemaVersion {
            return StoreProblem("$.schema_version", "schema version \(version) is not supported; this build reads version \(StoreSnapshot.currentSchemaVersion)")
        }
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return StoreProblem(StoreCoding.path(context.codingPath), "has the wrong type")
        case .keyNotFound(let key, let context):
            return StoreProblem(StoreCoding.path(context.codingPath), "missing field `\(key.stringValue)`")
        case .dataCorrupted(let context):
            return StoreProblem(StoreCoding.path(context.codingPath), context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription)
        default:
            return StoreProblem("$", "cannot be decoded: \(error.localizedDescription)")
        }
    }
}

/// The problems that make a store's bytes unusable; never empty.
package struct StoreProblems: Error, Sendable {
    package let problems: [StoreProblem]

    package init(_ problems: [StoreProblem]) { self.problems = problems }
}
