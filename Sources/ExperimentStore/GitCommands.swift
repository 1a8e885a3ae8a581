import ExperimentCore
import Foundation

#if os(Linux) || os(macOS)  // Process: no child processes on iOS, tvOS or watchOS

/// The one boundary to git: spawns `git` with an argument array (never a shell string), reads its
/// machine formats, and maps failures to `GitError` carrying git's own message.
package struct GitCommands: Sendable {
    /// The directory git runs in (`git -C`).
    package let directory: String

    package init(directory: String) { self.directory = directory }

    /// What went wrong talking to git.
    package enum GitError: Error, Equatable {
        /// No `git` on PATH.
        case missing
        /// git ran and refused: its arguments and its own message.
        case failed(arguments: [String], message: String)

        package var message: String {
            switch self {
            case .missing: "git is not installed (no `git` on PATH)"
            case .failed(let arguments, let message): "git \(arguments.first ?? "") failed: \(message)"
            }
        }
    }

    /// Runs `git -C directory arguments…`; stdout on success.
    @discardableResult
    package func run(_ arguments: [String]) throws(GitError) -> String {
        let (status, output, error) = try spawn(arguments)
        guard status == 0 else {
            let message = error.trimmingCharacters(in: .whitespacesAndNewlines)
            throw .failed(arguments: arguments, message: message.isEmpty ? "exit \(status)" : message)
        }
        return output
    }

    /// Runs git and answers whether it exited 0 (a query whose "no" is not a failure).
    package func succeeds(_ arguments: [String]) throws(GitError) -> Bool {
        try spawn(arguments).status == 0
    }

    private func spawn(_ arguments: [String]) throws(GitError) -> (status: Int32, output: String, error: String) {
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
        do { try process.run() } catch { throw .missing }
        // git's messages are short: reading stdout to its end first cannot leave git blocked on stderr.
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        let errorData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
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
        let (status, output, _) = try spawn(["config", "--get", key])
        return status == 0 ? output.trimmingCharacters(in: .newlines) : nil
    }

    /// Sets a config value in the repository's own config.
    package func setConfig(_ key: String, _ value: String) throws(GitError) {
        try run(["config", "--local", key, value])
    }

    /// The current branch, nil on a detached HEAD.
    package func branch() throws(GitError) -> String? {
        let (status, output, _) = try spawn(["symbolic-ref", "-q", "--short", "HEAD"])
        return status == 0 ? output.trimmingCharacters(in: .newlines) : nil
    }

    /// Whether a merge is in progress (MERGE_HEAD exists).
    package func mergeInProgress() throws(GitError) -> Bool {
        try succeeds(["rev-parse", "-q", "--verify", "MERGE_HEAD"])
    }

    /// The index stages (1 BASE, 2 OURS, 3 THEIRS) recorded for `path`, from `ls-files --stage -z`.
    package func stages(of path: String) throws(GitError) -> [Int] {
        try run(["ls-files", "--stage", "-z", "--", path]).split(separator: "\0").compactMap { record in
            // "<mode> <object> <stage>\t<path>"
            let fields = record.split(separator: "\t", maxSplits: 1).first?.split(separator: " ") ?? []
            return fields.count == 3 ? Int(fields[2]) : nil
        }
    }

    // MARK: - Changes

    /// Commits `path` alone with `message` (other staged work stays staged and out of the commit).
    /// Nothing is committed when the store is as HEAD has it (a command that changed nothing).
    package func commitOnly(_ path: String, message: String) throws(GitError) {
        try run(["add", "--", path])
        let hasHead = try succeeds(["rev-parse", "-q", "--verify", "HEAD"])
        if hasHead, try succeeds(["diff", "--cached", "--quiet", "HEAD", "--", path]) { return }
        try run(["commit", "--only", "--quiet", "-m", message, "--", path])
    }
}

extension GitCommands {
    /// The branch, its distance to the upstream and the store's state, from `git status --porcelain=v2 --branch -z`.
    package func status(of path: String) throws(GitError) -> GitStatus {
        let output = try run(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--", path])
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

    /// The store as recorded in index stage `stage` (1 BASE, 2 OURS, 3 THEIRS) during a conflicted merge.
    package func stage(_ stage: Int, of path: String) throws(GitError) -> Data {
        Data(try run(["show", ":\(stage):./\((path as NSString).lastPathComponent)"]).utf8)
    }

    /// Stages `path` (`git add`), e.g. a store whose conflicts were settled.
    package func add(_ path: String) throws(GitError) {
        try run(["add", "--", path])
    }
}

extension GitCommands {
    /// The repository config key `git-setup --commit-changes` sets: commit the store after each change.
    package static let commitChangesKey = "abconsole.commitChanges"

    /// After a change to the store at `storePath` (absolute): commits the store alone when the
    /// repository asks for it, message `subject` and an `Operator:` trailer. Nil when committed or
    /// not asked; otherwise why no commit was made (the change itself stays saved).
    package static func commitStoreIfAsked(_ storePath: String, subject: String, operatorName: String) -> String? {
        let directory = (storePath as NSString).deletingLastPathComponent
        let git = GitCommands(directory: directory)
        guard mayBeInRepository(directory), executable() != nil, (try? git.config(commitChangesKey)) == "true" else { return nil }
        do {
            if try git.branch() == nil { return "HEAD is detached (check out a branch to commit)" }
            if try git.mergeInProgress() { return "a merge is in progress (finish it with `git commit`)" }
            try git.commitOnly(storePath, message: "\(subject)\n\nOperator: \(operatorName)")
            return nil
        } catch {
            return error.message
        }
    }
}
#endif
