import ExperimentCore
import ExperimentEditing
import Foundation

#if os(Linux) || os(macOS)  // Process: no child processes on iOS, tvOS or watchOS

/// The one boundary to git: spawns `git` with an argument array (never a shell string), reads its
/// machine formats, and maps failures to `GitError` carrying git's own message.
package struct GitCommands: Sendable {
    /// The directory git runs in (`git -C`).
    package let directory: String
    /// How long one git may run before it is ended (SIGTERM, then SIGKILL, to its process group); nil: no limit.
    package var timeout: Double?
    /// Where a running git is registered so its owner can end it (the console at quit); nil: nobody.
    package var children: GitChildren?

    package init(directory: String, timeout: Double? = nil, children: GitChildren? = nil) {
        self.directory = directory
        self.timeout = timeout
        self.children = children
    }

    /// What went wrong talking to git.
    package enum GitError: Error, Equatable {
        /// No `git` on PATH.
        case missing
        /// git ran and refused: its arguments and its own message.
        case failed(arguments: [String], message: String)
        /// git did not answer within `seconds` and was ended.
        case timedOut(arguments: [String], seconds: Double)

        package var message: String {
            switch self {
            case .missing: "git is not installed (no `git` on PATH)"
            case .failed(let arguments, let message): "git \(Self.command(arguments)) failed: \(message)"
            case .timedOut(let arguments, let seconds): "git \(Self.command(arguments)) did not answer within \(seconds.formatted()) s and was stopped"
            }
        }

        /// The git command in `arguments`: the first word after the global options (`-c key=value`, `--no-optional-locks`).
        private static func command(_ arguments: [String]) -> String {
            var words = arguments[...]
            while let word = words.first, word.hasPrefix("-") { words = words.dropFirst(word == "-c" ? 2 : 1) }
            return words.first ?? ""
        }
    }

    /// Runs `git -C directory arguments…`; stdout on success.
    @discardableResult
    package func run(_ arguments: [String]) throws(GitError) -> String {
        String(decoding: try runForBytes(arguments), as: UTF8.self)
    }

    /// Runs `git -C directory arguments…`; stdout's bytes on success (file contents: never through `String`).
    package func runForBytes(_ arguments: [String]) throws(GitError) -> Data {
        let answer = try spawn(arguments)
        guard answer.status == 0 else {
            let message = String(decoding: answer.error, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .failed(arguments: arguments, message: message.isEmpty ? "exit \(answer.status)" : message)
        }
        return answer.output
    }

    /// Runs git; its stdout's line when it exited 0, nil otherwise (a query whose "no" is not a failure).
    private func answer(_ arguments: [String]) throws(GitError) -> String? {
        let answer = try spawn(arguments)
        return answer.status == 0 ? String(decoding: answer.output, as: UTF8.self).trimmingCharacters(in: .newlines) : nil
    }

    /// Runs git and answers whether it exited 0 (a query whose "no" is not a failure).
    package func succeeds(_ arguments: [String]) throws(GitError) -> Bool {
        try spawn(arguments).status == 0
    }

    /// What one git answered: its exit status and both streams' bytes.
    private struct Answer {
        let status: Int32
        let output: Data
        let error: Data
    }

    private func spawn(_ arguments: [String]) throws(GitError) -> Answer {
        guard let git = GitCommands.executable() else { throw .missing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["-C", directory] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch { throw .missing }
        children?.started(process)
        defer { children?.finished(process) }
        // Both streams drain at once: a hook that fills one pipe (64 KiB) while git still writes the
        // other would block git, and a reader taking them in turn would wait for it forever.
        let output = PipeDrain(out.fileHandleForReading), error = PipeDrain(err.fileHandleForReading)
        if let timeout, exited.wait(timeout: .now() + timeout) == .timedOut {
            GitChildren.end(process)
            // Its process group is gone, so the pipes close; a child that left the group may hold them open.
            _ = output.bytes(waiting: 1)
            _ = error.bytes(waiting: 1)
            throw .timedOut(arguments: arguments, seconds: timeout)
        }
        // The termination handler answers at once; Foundation's `waitUntilExit` alone polls a run loop every 50 ms.
        if timeout == nil { exited.wait() }
        let outputData = output.bytes(waiting: nil) ?? Data(), errorData = error.bytes(waiting: nil) ?? Data()
        process.waitUntilExit()
        return Answer(status: process.terminationStatus, output: outputData, error: errorData)
    }

    /// The `git` on PATH, if any.
    package static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `directory` or a parent holds `.git` (or `GIT_DIR` is set): a file-system check that
    /// spares a git process for a store outside any repository.
    package static func mayBeInRepository(_ directory: String) -> Bool {
        if ProcessInfo.processInfo.environment["GIT_DIR"] != nil { return true }
        var current = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: current.appendingPathComponent(".git").path) { return true }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return false }
            current = parent
        }
    }

    // MARK: - Queries

    /// The work tree's top directory, or nil when `directory` is not inside one.
    package func topLevel() throws(GitError) -> String? {
        guard try succeeds(["rev-parse", "--is-inside-work-tree"]) else { return nil }
        return try run(["rev-parse", "--show-toplevel"]).trimmingCharacters(in: .newlines)
    }

    /// A config value of the repository, nil when unset.
    package func config(_ key: String) throws(GitError) -> String? {
        try answer(["config", "--get", key])
    }

    /// Sets a config value in the repository's own config.
    package func setConfig(_ key: String, _ value: String) throws(GitError) {
        try run(["config", "--local", key, value])
    }

    /// The current branch, nil on a detached HEAD.
    package func branch() throws(GitError) -> String? {
        try answer(["symbolic-ref", "-q", "--short", "HEAD"])
    }

    /// The values git gives `path`'s attributes `names` (`abconsole`, `unset`, `unspecified`, …), from
    /// `check-attr -z`: every .gitattributes and `.git/info/attributes` rule, as git itself reads them.
    package func attributes(_ names: [String], of path: String) throws(GitError) -> [String: String] {
        // "<path>\0<attribute>\0<value>\0" per attribute.
        let fields = try run(["check-attr", "-z"] + names + ["--", path]).split(separator: "\0", omittingEmptySubsequences: false)
        var values: [String: String] = [:]
        for start in stride(from: 0, to: fields.count - 2, by: 3) { values[String(fields[start + 1])] = String(fields[start + 2]) }
        return values
    }

    /// Whether git ignores `path` (its .gitignore rules, tracked or not).
    package func ignores(_ path: String) throws(GitError) -> Bool {
        try succeeds(["check-ignore", "-q", "--no-index", "--", path])
    }

    /// Whether `path` (taken literally, not as a pattern) is in the index.
    package func tracks(_ path: String) throws(GitError) -> Bool {
        !(try runForBytes(["--literal-pathspecs", "ls-files", "-z", "--", path]).isEmpty)
    }

    /// The index stages (1 BASE, 2 OURS, 3 THEIRS) recorded for `path`, from `ls-files --stage -z`.
    package func stages(of path: String) throws(GitError) -> [Int] {
        try run(["ls-files", "--stage", "-z", "--", path]).split(separator: "\0").compactMap { record in
            // "<mode> <object> <stage>\t<path>"
            let fields = record.split(separator: "\t", maxSplits: 1).first?.split(separator: " ") ?? []
            return fields.count == 3 ? Int(fields[2]) : nil
        }
    }
}

extension GitCommands {
    /// The branch, its distance to the upstream and the store's state, from `git status --porcelain=v2 --branch -z`.
    package func status(of path: String) throws(GitError) -> GitStatus {
        // A title bar's read: no fsmonitor hook (a repository's own program) and no index refresh written back.
        let output = try run(["-c", "core.fsmonitor=false", "--no-optional-locks",
                              "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--", path])
        var status = GitStatus(branch: nil, store: .committed)
        for record in output.split(separator: "\0") {
            let fields = record.split(separator: " ")
            switch fields.first {
            case "#" where fields.count >= 3 && fields[1] == "branch.head":
                status.branch = fields[2] == "(detached)" ? nil : String(fields[2...].joined(separator: " "))
            case "#" where fields.count >= 4 && fields[1] == "branch.ab":
                status.ahead = Int(fields[2].dropFirst())
                status.behind = Int(fields[3].dropFirst())
            case "u": status.store = .conflicted
            case "1", "2": if status.store != .conflicted { status.store = .uncommitted }
            case "?": if status.store == .committed { status.store = .untracked }
            default: break
            }
        }
        return status
    }

    /// The store's bytes as recorded in index stage `stage` (1 BASE, 2 OURS, 3 THEIRS) during a
    /// conflicted merge: exactly git's bytes, so a file that is not UTF-8 stays invalid.
    package func stage(_ stage: Int, of path: String) throws(GitError) -> Data {
        try runForBytes(["show", ":\(stage):./\((path as NSString).lastPathComponent)"])
    }

    /// Stages `path` (`git add`), e.g. a store whose conflicts were settled.
    package func add(_ path: String) throws(GitError) {
        try run(["add", "--", path])
    }
}

/// The gits one owner started and has not seen end, so it can end them (the console at quit).
/// `@unchecked Sendable`: `running` and `closed` are touched only under `lock`.
package final class GitChildren: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [ObjectIdentifier: Process] = [:]
    /// Set by `endAll`: a git started after it (it was being spawned meanwhile) is ended at once.
    private var closed = false

    package init() {}

    func started(_ process: Process) {
        let open = lock.withLock {
            if !closed { running[ObjectIdentifier(process)] = process }
            return !closed
        }
        if !open { GitChildren.end(process) }
    }

    func finished(_ process: Process) {
        _ = lock.withLock { running.removeValue(forKey: ObjectIdentifier(process)) }
    }

    /// Ends every git still running, with whatever it started (its process group), and any started later.
    package func endAll() {
        let processes = lock.withLock {
            closed = true
            return Array(running.values)
        }
        for process in processes { GitChildren.end(process) }
    }

    /// SIGTERM to `process`'s group (Foundation starts each child in a group of its own, so a hook or
    /// fsmonitor it runs goes too); SIGKILL after half a second if anything there ignored it.
    static func end(_ process: Process) {
        let group = process.processIdentifier
        guard FileSystem.signalGroup(group, .terminate) else { return }
        let deadline = Date().addingTimeInterval(0.5)
        while FileSystem.signalGroup(group, .probe), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        FileSystem.signalGroup(group, .kill)
    }
}

/// Reads a pipe to its end on a thread of its own, so two pipes drain at once.
/// `@unchecked Sendable`: `data` is written by the draining thread before `done` is signalled, and read only after waiting on it.
private final class PipeDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe gave, once it closed; nil when `seconds` passed first.
    func bytes(waiting seconds: Double?) -> Data? {
        guard let seconds else {
            done.wait()
            return data
        }
        return done.wait(timeout: .now() + seconds) == .success ? data : nil
    }
}
#endif
