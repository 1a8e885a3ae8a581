#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentStore
import Foundation
import Testing

/// The console's title bar reads `git status` in a real repository: the repository's fsmonitor
/// program never runs, a git that does not answer is ended with what it started, and quitting ends
/// a read still running. No git or hook of the repository outlives the console.
@Suite(.serialized) struct ConsoleGitPollTests {
    /// A committed store in a fresh repository.
    static func repository() throws -> TempStore {
        let store = try TempStore()
        try store.createRunning("alpha")
        for arguments in [["init", "-q", "-b", "main"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "-m", "base"]] {
            #expect(git(arguments, in: store.directory) == 0, "git \(arguments.joined(separator: " "))")
        }
        return store
    }

    static func git(_ arguments: [String], in directory: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The processes (but this one) whose command line names `text`.
    static func processes(naming text: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                  let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            return String(decoding: line, as: UTF8.self).contains(text) ? pid : nil
        }
    }

    /// Ticks `session` until `done` holds, at most `seconds`; whether it held.
    static func tick(_ session: ConsoleSession, seconds: Double, until done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            session.tick()
            if done() { return true }
            usleep(20_000)
        }
        return done()
    }

    @Test func theTitleBarNeverRunsTheRepositorysFsmonitor() throws {
        let store = try Self.repository()
        let hook = store.directory + "/hang-fsmonitor.sh", started = store.directory + "/fsmonitor-started"
        try "#!/bin/sh\necho $$ >> '\(started)'\ntrap '' TERM\nwhile :; do sleep 1; done\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        #expect(Self.git(["config", "core.fsmonitor", hook], in: store.directory) == 0)
        defer { for pid in Self.processes(naming: hook) { kill(pid, SIGKILL) } }
        let session = try ConsoleSession(store: store.file, operatorName: "alice")
        #expect(Self.tick(session, seconds: 20) { session.state.git != nil }, "the title bar never heard from git")
        #expect(session.state.git?.branch == "main")
        session.finishJobs(seconds: 1)
        #expect(!FileManager.default.fileExists(atPath: started), "git status ran the repository's fsmonitor")
        #expect(Self.processes(naming: hook).isEmpty)
    }

    @Test func aStatusThatDoesNotAnswerIsEndedAndQuittingEndsAnother() throws {
        let store = try Self.repository()
        // git status opens .git/info/exclude to list untracked files; as a FIFO nobody writes, the open never returns.
        let exclude = store.directory + "/.git/info/exclude"
        try? FileManager.default.removeItem(atPath: exclude)
        #expect(mkfifo(exclude, 0o644) == 0)
        defer { for pid in Self.processes(naming: store.directory) { kill(pid, SIGKILL) } }
        let session = try ConsoleSession(store: store.file, operatorName: "alice")
        #expect(Self.tick(session, seconds: 10) { !Self.processes(naming: store.directory).isEmpty }, "the title bar started no git")
        // Its timeout (2 s) ends it; nothing else would.
        #expect(Self.tick(session, seconds: 15) { Self.processes(naming: store.directory).isEmpty }, "a git that does not answer was left running")
        #expect(session.state.git == nil)
        // The next reading hangs too; quitting ends it at once.
        #expect(Self.tick(session, seconds: 10) { !Self.processes(naming: store.directory).isEmpty }, "the title bar did not read again")
        session.finishJobs(seconds: 1)
        // The group was sent SIGTERM (SIGKILL after 0.5 s); on a loaded machine its exit can take a moment to show.
        let deadline = Date().addingTimeInterval(5)
        while !Self.processes(naming: store.directory).isEmpty, Date() < deadline { usleep(50_000) }
        #expect(Self.processes(naming: store.directory).isEmpty, "quitting left the title bar's git running")
    }
}
