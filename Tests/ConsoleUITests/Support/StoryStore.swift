import ConsoleRuntime
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
import Testing
@testable import ConsoleUI

/// A console session over a real copy of sample-data/experiments.json in a fresh temp directory.
///
/// The directory name has a fixed length and is masked in `screen()`, so whole-screen snapshots
/// do not depend on where the test ran. The clock is fixed, so saved times are known.
final class StoryStore {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-data/experiments.json")
    /// The time every change in a story is made at.
    static let now = Date(timeIntervalSince1970: 1_793_793_600)  // 2026-11-04 12:00 UTC
    static let operatorName = "story-op"
    static let width = 100
    static let height = 30

    let directory: String
    let store: StoreFile
    let session: ConsoleSession

    /// Copies the sample store (optionally changed by `prepare`) and opens a session on it; each key
    /// waits up to `settleTime` seconds for a save it started (stories see its result at once).
    init(readOnly: Bool = false, settleTime: Double = 10, lockTimeout: Double = 10, prepare: (StoreFile) throws -> Void = { _ in }) throws {
        let directory = "/tmp/abstory-" + UUID().uuidString.prefix(8).lowercased()
        let store = StoreFile(path: directory + "/experiments.json", lockTimeout: lockTimeout)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.sample.path, toPath: store.path)
            try prepare(store)
            session = try ConsoleSession(store: store, operatorName: Self.operatorName, readOnly: readOnly, settleTime: settleTime, clock: { Self.now })
        } catch {
            // deinit does not run for an object that failed to initialise.
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        self.directory = directory
        self.store = store
        // As the run loop does before the first frame: the screens page by the rows this size shows.
        session.resize(width: Self.width, height: Self.height)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The whole screen at 100×30 as text lines, the temp directory masked.
    func screen(width: Int = StoryStore.width, height: Int = StoryStore.height) -> [String] {
        session.render(width: width, height: height).lines().map { $0.replacingOccurrences(of: directory, with: "/tmp/abstory-XXXXXXXX") }
    }

    /// The store as saved on disk now.
    func saved() throws -> StoreSnapshot { try store.load() }

    /// The raw bytes of the store file.
    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: store.path)) }

    /// Sends each key in turn.
    func send(_ keys: Key...) { keys.forEach(session.send) }

    /// Changes the store as another operator would, behind the session's back.
    func changeExternally(_ change: Change, by operatorName: String = "other.op") throws {
        try store.apply(change, context: ChangeContext(operatorName: operatorName, now: Self.now))
    }

    /// The experiment rows of the list screen (the lines with a key in the first column).
    func listRows() -> [String] {
        let lines = screen()
        guard let header = lines.firstIndex(where: { $0.hasPrefix(" KEY ") }) else { return [] }
        return Array(lines[(header + 1)...].prefix { !$0.isEmpty })
    }
}

extension StoryStore {
    /// A session with the detail screen of `key` open (through the list filter).
    static func opened(_ key: String, readOnly: Bool = false) throws -> StoryStore {
        let store = try StoryStore(readOnly: readOnly)
        store.send(.character("/"))
        store.session.type(key)
        store.send(.enter, .enter)
        #expect(store.session.state.screen == .detail(key: key))
        return store
    }
}
