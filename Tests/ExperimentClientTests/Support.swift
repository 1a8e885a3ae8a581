import ExperimentClient
import ExperimentCore
import Foundation

/// Builds experiments and snapshots for the client tests.
enum Fixture {
    static let epoch = Date(timeIntervalSince1970: 0)

    /// The repository's sample store.
    static let sampleStoreURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-data/experiments.json")

    static func experiment(_ key: String, type: SubjectType = .user, status: ExperimentStatus = .running, control: String? = nil,
                           winner: String? = nil, salt: String? = nil, variants: [(String, [BucketRange], JSONValue?)],
                           whitelist: [String: String] = [:]) -> Experiment {
        let models = variants.map { name, ranges, payload in
            Variant(name: name, weight: Weight(buckets: ranges.reduce(0) { $0 + $1.count }), ranges: ranges, payload: payload)
        }
        var entries: [SubjectID: WhitelistEntry] = [:]
        for (subject, variant) in whitelist {
            entries[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: variant, note: "", addedBy: "t", addedAt: epoch)
        }
        return Experiment(key: key, type: type, status: status, salt: salt ?? key, control: control ?? variants[0].0, winner: winner,
                          description: "", revision: 1, createdAt: epoch, updatedAt: epoch, updatedBy: "t", variants: models, whitelist: entries)
    }

    /// A `--format client` snapshot of `experiments`.
    static func clientData(_ experiments: [Experiment], revision: Int = 1) -> Data {
        var snapshot = StoreSnapshot(revision: revision)
        for experiment in experiments { snapshot.experiments[experiment.key] = experiment }
        return (try? ClientSnapshotDocument(snapshot).encoded()) ?? Data()
    }

    /// A temporary directory, removed by the caller with `remove`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Everyone in `[0, 5000)` gets `a`, `[5000, 10000)` gets `b`.
    static let half: [(String, [BucketRange], JSONValue?)] = [("a", [BucketRange(0, 5000)], nil), ("b", [BucketRange(5000, 10000)], nil)]
}

/// Keeps every report, in order.
final class Recorder: ExperimentClientDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ClientReport] = []

    var reports: [ClientReport] { lock.lock(); defer { lock.unlock() }; return stored }

    func experimentClient(_ client: ExperimentClient, didReport report: ClientReport) {
        lock.lock()
        stored.append(report)
        lock.unlock()
    }
}

/// Keeps every exposure.
final class MemorySink: ExposureSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Exposure] = []

    var exposures: [Exposure] { lock.lock(); defer { lock.unlock() }; return stored }

    func record(_ exposure: Exposure) {
        lock.lock()
        stored.append(exposure)
        lock.unlock()
    }
}

/// Collects change notifications.
final class ChangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Set<String>] = []

    var changes: [Set<String>] { lock.lock(); defer { lock.unlock() }; return stored }

    func append(_ keys: Set<String>) {
        lock.lock()
        stored.append(keys)
        lock.unlock()
    }
}

// Keys over the fixtures.

enum Split: String, ExperimentEnum {
    case a, b
    static let key = "split", defaultValue = Split.a
}

enum Rollout: ExperimentFlag {
    static let key = "rollout"
}

struct Theme: Decodable, Sendable, Equatable {
    let color: String
}

enum ThemeKey: ExperimentPayload {
    static let key = "theme", defaultValue = Theme(color: "default")
}

enum Missing: String, ExperimentEnum {
    case x
    static let key = "not_in_snapshot", defaultValue = Missing.x
}
