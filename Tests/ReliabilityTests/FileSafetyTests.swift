#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
import Testing

/// Saving keeps the store's mode and owner, writes temp files only beside it and never more open
/// than the store, and writes through a symlinked store path to its target.
@Suite(.serialized) struct FileSafetyTests {
    private func addSubject(_ store: StoreFile, _ subject: String) throws {
        try store.apply(.whitelistAdd(experiment: "checkout", subject: subject, variant: "treat", note: ""),
                        context: ChangeContext(operatorName: "saver", now: TempStore.t1))
    }

    @Test(arguments: [0o600, 0o640, 0o604, 0o660] as [mode_t])
    func savingKeepsTheStoresMode(mode: mode_t) throws {
        let store = try TempStore()
        try store.createRunning()
        #expect(chmod(store.path, mode) == 0)
        try addSubject(store.file, "user-1")
        #expect((TempStore.info(store.path)?.st_mode ?? 0) & 0o7777 == mode)
    }

    @Test func savingKeepsTheStoresOwnerWhenRunAsRoot() throws {
        guard geteuid() == 0 else { return } // only root can hand a file to another user
        let store = try TempStore()
        try store.createRunning()
        #expect(chown(store.path, 12345, 12345) == 0)
        #expect(chmod(store.path, 0o600) == 0)
        try addSubject(store.file, "user-1")
        let info = try #require(TempStore.info(store.path))
        #expect(info.st_uid == 12345 && info.st_gid == 12345)
        #expect(info.st_mode & 0o7777 == 0o600)
    }

    @Test func aNewStoreIsCreated0644() throws {
        let store = try TempStore()
        let previous = umask(0o022)
        defer { umask(previous) }
        try store.createRunning()
        #expect((TempStore.info(store.path)?.st_mode ?? 0) & 0o7777 == 0o644)
    }

    /// A watcher thread lists the store's directory while saves run and stats every temp file it sees.
    @Test(arguments: [0o600, 0o640] as [mode_t])
    func tempFilesAppearOnlyBesideTheStoreAndNeverMoreOpenThanIt(mode: mode_t) throws {
        let store = try TempStore()
        try store.createRunning()
        // Enough entries that each save writes for a while, so the watcher catches temp files.
        let rows = (0..<3_000).map { WhitelistRow(line: $0 + 1, subject: "bulk-\($0)", variant: "control", note: "a note to make it longer") }
        try store.file.apply(.whitelistImport(experiment: "checkout", rows: rows), context: ChangeContext(operatorName: "setup", now: TempStore.t0))
        #expect(chmod(store.path, mode) == 0)
        let watcher = TempWatcher(directory: store.directory, prefix: ".experiments.json.tmp-")
        let thread = Thread { watcher.watch() }
        thread.start()
        var saves = 0
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, saves < 15 || watcher.snapshot.seen < 3 {
            try addSubject(store.file, "watched-\(saves)")
            saves += 1
        }
        watcher.stop()
        let result = watcher.snapshot
        print("file safety: \(saves) saves of a 0\(String(mode, radix: 8)) store, \(result.seen) temp file sightings, modes \(result.modes.map { "0" + String($0, radix: 8) }.sorted())")
        #expect(result.seen > 0, "the watcher saw no temp file; the test proved nothing")
        for seenMode in result.modes {
            #expect(seenMode & ~mode == 0, "a temp file had mode 0\(String(seenMode, radix: 8)), more open than the store's 0\(String(mode, radix: 8))")
        }
        #expect(result.owners.allSatisfy { $0 == geteuid() })
        #expect((TempStore.info(store.path)?.st_mode ?? 0) & 0o7777 == mode)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "no temp file is left after successful saves")
    }

    @Test func aSymlinkedStorePathIsWrittenThroughToItsTarget() throws {
        let store = try TempStore()
        let realDirectory = (store.directory as NSString).appendingPathComponent("real")
        try FileManager.default.createDirectory(atPath: realDirectory, withIntermediateDirectories: true)
        let target = (realDirectory as NSString).appendingPathComponent("experiments.json")
        try store.createRunning(at: target)
        #expect(chmod(target, 0o600) == 0)
        // A relative link, and a link to that link.
        #expect(symlink("real/experiments.json", store.path) == 0)
        let chained = (store.directory as NSString).appendingPathComponent("chained.json")
        #expect(symlink("experiments.json", chained) == 0)

        try addSubject(StoreFile(path: store.path), "through-link")
        try addSubject(StoreFile(path: chained), "through-chain")

        for link in [store.path, chained] {
            let info = try #require(TempStore.info(link, follow: false))
            #expect(info.st_mode & S_IFMT == S_IFLNK, "\(link) is still a symlink, not replaced by a regular file")
        }
        let written = try StoreFile(path: target).load()
        #expect(Set(written.experiments["checkout"]?.whitelist.keys.map(\.text) ?? []) == ["through-link", "through-chain"])
        #expect((TempStore.info(target)?.st_mode ?? 0) & 0o7777 == 0o600)
        let besideLink = try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        #expect(besideLink == ["chained.json", "experiments.json", "real"], "lock and temp files go beside the target")
    }

    @Test func aDanglingSymlinkIsCreatedThroughToItsTarget() throws {
        let store = try TempStore()
        #expect(symlink("target.json", store.path) == 0)
        try store.createRunning()
        let info = try #require(TempStore.info(store.path, follow: false))
        #expect(info.st_mode & S_IFMT == S_IFLNK)
        let target = (store.directory as NSString).appendingPathComponent("target.json")
        #expect(try StoreFile(path: target).load().experiments.keys.sorted() == ["checkout"])
    }
}

/// Lists a directory in a loop and records the mode and owner of every temp file it sees.
final class TempWatcher: @unchecked Sendable {
    struct Snapshot {
        var seen = 0
        var modes = Set<mode_t>()
        var owners = Set<uid_t>()
    }

    private let directory: String
    private let prefix: String
    private let lock = NSLock()
    private var state = Snapshot()
    private var running = true

    init(directory: String, prefix: String) {
        self.directory = directory
        self.prefix = prefix
    }

    var snapshot: Snapshot { lock.withLock { state } }

    func stop() {
        lock.withLock { running = false }
        Thread.sleep(forTimeInterval: 0.05)
    }

    func watch() {
        while lock.withLock({ running }) {
            guard let handle = opendir(directory) else { continue }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasPrefix(prefix) else { continue }
                var info = stat()
                guard lstat((directory as NSString).appendingPathComponent(name), &info) == 0 else { continue }
                lock.withLock {
                    state.seen += 1
                    state.modes.insert(info.st_mode & 0o7777)
                    state.owners.insert(info.st_uid)
                }
            }
            closedir(handle)
            sched_yield()
        }
    }
}
