#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// A store file in a fresh temp directory, removed when the value is released.
final class TempStore {
    let directory: String
    let path: String
    var file: StoreFile { StoreFile(path: path, lockTimeout: 5) }

    static let t0 = Date(timeIntervalSince1970: 1_772_359_200) // 2026-03-01T10:00:00Z
    static let t1 = Date(timeIntervalSince1970: 1_772_362_800) // 2026-03-01T11:00:00Z

    init(name: String = "experiments.json") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-reliability-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = (directory as NSString).appendingPathComponent(name)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A running user-level experiment `key`, control=50,treat=50, created by `setup`.
    func createRunning(_ key: String = "checkout", at path: String? = nil) throws {
        let store = StoreFile(path: path ?? self.path)
        let context = ChangeContext(operatorName: "setup", now: TempStore.t0)
        let draft = ExperimentDraft(key: key, type: .user, variants: [(name: "control", weight: Weight(buckets: 5000)),
                                                                       (name: "treat", weight: Weight(buckets: 5000))])
        try store.apply(.create(draft), context: context)
        try store.apply(.start(experiment: key), context: context)
    }

    func bytes(_ path: String? = nil) -> Data? { FileManager.default.contents(atPath: path ?? self.path) }

    /// `stat` (following links) or `lstat` of `path`.
    static func info(_ path: String, follow: Bool = true) -> stat? {
        var info = stat()
        return (follow ? stat(path, &info) : lstat(path, &info)) == 0 ? info : nil
    }
}
