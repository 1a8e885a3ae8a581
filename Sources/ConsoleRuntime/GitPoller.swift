import ConsoleUI
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// Reads where the store stands in git off the render loop (`git status --porcelain=v2`, and on a
/// conflicted merge the index stages read against the file for the conflicts still open), at most every
/// `interval` seconds; the session takes each answer on its own thread.
///
/// The status runs without the repository's fsmonitor program, and a git that has not answered
/// within `timeout` seconds is ended with what it started; `end()` ends a running one at quit.
/// `@unchecked Sendable`: its `var`s are touched only under `lock`; the rest are `let`s.
final class GitPoller: @unchecked Sendable {
    /// One answer: the status (nil outside a repository or without git), the store's conflicts, and
    /// why a conflicted store has none to pick (the way out).
    struct Reading: Equatable, Sendable {
        var status: GitStatus?
        var conflicts: [MergeConflict]
        var trouble: String?
    }

    private let storePath: String
    private let interval: Double
    /// The fast paths a conflicted store's reads may take, as the console's launcher chose them.
    private let fastPaths: FastPaths
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

    init(storePath: String, fastPaths: FastPaths, interval: Double = 2) {
        self.storePath = StoreFile.resolvedAbsolute(storePath)
        self.fastPaths = fastPaths
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
            let reading = GitPoller.read(storePath, fastPaths: fastPaths, children: children)
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

    static func read(_ storePath: String, fastPaths: FastPaths, children: GitChildren? = nil) -> Reading {
        let directory = (storePath as NSString).deletingLastPathComponent
        guard GitCommands.mayBeInRepository(directory), GitCommands.executable() != nil else { return Reading(status: nil, conflicts: []) }
        let git = GitCommands(directory: directory, timeout: timeout, children: children)
        guard let status = try? git.status(of: storePath) else { return Reading(status: nil, conflicts: []) }
        guard status.store == .conflicted else { return Reading(status: status, conflicts: []) }
        let (conflicts, trouble) = GitConflicts(storePath: storePath, fastPaths: fastPaths).read()
        return Reading(status: status, conflicts: conflicts, trouble: trouble)
    }
}
