import ConsoleUI
import ExperimentCore
import ExperimentStore
import Foundation

/// Reads where the store stands in git off the render loop (`git status --porcelain=v2`, and on a
/// conflicted merge the three index stages merged again for their conflicts), at most every
/// `interval` seconds; the session takes each answer on its own thread.
///
/// The status runs without the repository's fsmonitor program, and a git that has not answered
/// within `timeout` seconds is ended with what it started; `end()` ends a running one at quit.
final class GitPoller: @unchecked Sendable {
    /// One answer: the status (nil outside a repository or without git) and the store's conflicts.
    struct Reading: Equatable, Sendable {
        var status: GitStatus?
        var conflicts: [MergeConflict]
    }

    private let storePath: String
    private let interval: Double
    private let lock = NSLock()
    private var running = false
    private var last: ContinuousClock.Instant?
    private var answer: Reading?
    private let queue = DispatchQueue(label: "abconsole.git-status")
    /// The gits a reading runs, so `end()` can stop them.
    private let children = GitChildren()
    private var ended = false
    /// How long the status may take before it is ended.
    static let timeout = 2.0

    init(storePath: String, interval: Double = 2) {
        self.storePath = GitPoller.absolute(storePath)
        self.interval = interval
    }

    /// Ends a reading's git (SIGTERM, then SIGKILL, to its process group) and starts no more: the console is quitting.
    func end() {
        lock.withLock { ended = true }
        children.endAll()
    }

    /// Starts a reading unless one runs or the last started less than `interval` ago.
    func pollIfDue() {
        lock.lock()
        defer { lock.unlock() }
        if running || ended { return }
        if let last, ContinuousClock.now - last < .seconds(interval) { return }
        running = true
        last = ContinuousClock.now
        queue.async { [self] in
            let reading = GitPoller.read(storePath, children: children)
            lock.lock()
            answer = reading
            running = false
            lock.unlock()
        }
    }

    /// The newest answer not taken yet.
    func take() -> Reading? {
        lock.lock()
        defer { lock.unlock() }
        defer { answer = nil }
        return answer
    }

    static func read(_ storePath: String, children: GitChildren? = nil) -> Reading {
        let directory = (storePath as NSString).deletingLastPathComponent
        guard GitCommands.mayBeInRepository(directory), GitCommands.executable() != nil else { return Reading(status: nil, conflicts: []) }
        let git = GitCommands(directory: directory, timeout: timeout, children: children)
        guard let status = try? git.status(of: storePath) else { return Reading(status: nil, conflicts: []) }
        guard status.store == .conflicted else { return Reading(status: status, conflicts: []) }
        // Only the conflicts are read: what the merge would write (its `revert` entries) is not.
        let reader = ChangeContext(operatorName: "abconsole", now: Date(timeIntervalSince1970: 0))
        return Reading(status: status, conflicts: (try? stagedMerge(storePath, by: reader).conflicts) ?? [])
    }

    /// The merge of the store's three index stages, settling the conflicts in `theirs` with THEIRS's value, by `context`'s operator.
    static func stagedMerge(_ storePath: String, takingTheirs theirs: Set<String> = [], by context: ChangeContext) throws -> MergeResult {
        let git = GitCommands(directory: (storePath as NSString).deletingLastPathComponent)
        let sides = try [1, 2, 3].map { stage in
            // No stage 1 when both sides added the store (add/add): they merge against an empty store.
            guard stage > 1 || (try? git.stages(of: storePath).contains(1)) == true else { return StoreSnapshot() }
            return try StoreSnapshot.decode(git.stage(stage, of: storePath), path: "\(storePath) (index stage \(stage))")
        }
        return StoreMerge.merge(base: sides[0], ours: sides[1], theirs: sides[2], takingTheirs: theirs, by: context)
    }

    static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
