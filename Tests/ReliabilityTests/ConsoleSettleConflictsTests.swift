import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
import Testing

/// The console's conflicts screen over a real repository: the real `abconsole` as git's merge
/// driver and CLI, real `git merge`. Settling records each choice in the history by the settling
/// operator, settles against the file as it is now (a change made after the merge survives), and a
/// conflicted store with nothing to pick says why and the way out.
@Suite(.serialized) struct ConsoleSettleConflictsTests {
    /// A repository with `alpha` running at 50/50: main ramps it to 80/20 and describes it "ours words";
    /// branch `theirs` ramps it to 70/30, describes it "theirs words" and whitelists user-1.
    final class Repo {
        let store: TempStore
        var path: String { store.path }
        var git: GitCommands { GitCommands(directory: store.directory) }

        init(setup: Bool = true) throws {
            store = try TempStore()
            try git.run(["init", "-q", "-b", "main"])
            try git.run(["config", "user.name", "tester"])
            try git.run(["config", "user.email", "tester@example.com"])
            try cli("create", "alpha", "--type", "user", "--variants", "control=50,treat=50")
            try cli("start", "alpha")
            if setup { try cli("git-setup") }
            try git.run(["add", "-A"])
            try git.run(["commit", "-q", "-m", "base"])
            try git.run(["checkout", "-q", "-b", "theirs"])
            try cli("ramp", "alpha", "control=70", "treat=30", as: "theirs-op")
            try cli("set-description", "alpha", "theirs words", as: "theirs-op")
            try cli("whitelist", "add", "alpha", "user-1", "treat", "--note", "qa", as: "theirs-op")
            try git.run(["commit", "-q", "-am", "theirs"])
            try git.run(["checkout", "-q", "main"])
            try cli("ramp", "alpha", "control=80", "treat=20", as: "ours-op")
            try cli("set-description", "alpha", "ours words", as: "ours-op")
            try git.run(["commit", "-q", "-am", "ours"])
        }

        /// `git merge theirs` (with `config` as `-c` settings), which must conflict.
        func merge(_ config: [String] = []) throws {
            #expect(try !git.succeeds(config.flatMap { ["-c", $0] } + ["merge", "-q", "--no-edit", "theirs"]), "the merge should conflict")
            #expect(try git.stages(of: path).sorted() == [1, 2, 3])
        }

        /// Runs the real `abconsole` on the store as `operatorName`; returns its stdout, throws unless it exits 0.
        @discardableResult
        func cli(_ arguments: String..., as operatorName: String = "setup") throws -> String {
            let process = Process()
            process.executableURL = Self.executable
            process.currentDirectoryURL = URL(fileURLWithPath: store.directory)
            process.arguments = ["--store", path, "--operator", operatorName] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CLIFailed(arguments: arguments, code: process.terminationStatus) }
            return String(decoding: data, as: UTF8.self)
        }

        /// The `abconsole` executable in the build directory, beside the test bundle.
        static let executable: URL = {
            let candidates = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
                + [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap { $0 }
            let executables = candidates.map { $0.appendingPathComponent("abconsole") }
            return executables.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? executables[0]
        }()
    }

    struct CLIFailed: Error {
        var arguments: [String]
        var code: Int32
    }

    /// Ticks the session (git's status is read off the loop) until `done` holds; false after 20 s.
    static func pump(_ console: ConsoleSession, until done: (AppState) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            console.tick()
            if done(console.state) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    static func conflicts(_ state: AppState) -> [MergeConflict]? {
        if case .conflicts(let form)? = state.overlay { return form.conflicts }
        return nil
    }

    @Test func eachChoiceIsRecordedByTheSettlingOperator() throws {
        let repo = try Repo()
        try repo.merge()
        let console = try ConsoleSession(store: repo.store.file, operatorName: "settler", settleTime: 30)
        #expect(Self.pump(console) { Self.conflicts($0)?.map(\.unit) == [.allocation, .description] })
        console.send(.right)  // the allocation: THEIRS
        console.send(.enter)  // the description: OURS
        #expect(console.state.message?.isError == false, "\(String(describing: console.state.message))")

        let settled = try repo.store.file.load()
        let alpha = try #require(settled.experiments["alpha"])
        #expect(alpha.weightSummary == "control=70,treat=30")
        #expect(alpha.description == "ours words")
        #expect(alpha.whitelist[SubjectID("user-1")] != nil, "the cleanly merged whitelist entry stays")
        #expect(alpha.updatedBy == "settler")
        let newest = settled.history.suffix(2).map { [$0.operatorName, $0.action.rawValue, $0.before ?? "∅", $0.after ?? "∅"] }
        #expect(newest == [["settler", "ramp", "control=80,treat=20", "control=70,treat=30"],
                           ["settler", "keep", "theirs words", "ours words"]])
        #expect(try repo.git.stages(of: repo.path) == [0], "the settled store is staged")
        try repo.cli("validate")
    }

    @Test func aChangeMadeAfterTheMergeSurvivesSettling() throws {
        let repo = try Repo()
        try repo.merge()
        // The command the merge printed to take THEIRS's description, run before the screen settles.
        try repo.cli("set-description", "alpha", "theirs words", as: "cli-op")
        let console = try ConsoleSession(store: repo.store.file, operatorName: "settler", settleTime: 30)
        #expect(Self.pump(console) { Self.conflicts($0)?.map(\.unit) == [.allocation] }, "only the allocation is still open")
        console.send(.enter)  // keep OURS's allocation
        #expect(console.state.message?.isError == false, "\(String(describing: console.state.message))")

        let settled = try repo.store.file.load()
        let alpha = try #require(settled.experiments["alpha"])
        #expect(alpha.description == "theirs words", "the CLI's change survives")
        #expect(alpha.weightSummary == "control=80,treat=20")
        #expect(settled.history.contains { $0.operatorName == "cli-op" && $0.action == .setDescription && $0.after == "theirs words" })
        let last = try #require(settled.history.last)
        #expect([last.operatorName, last.action.rawValue, last.before, last.after] == ["settler", "keep", "running, control=70,treat=30", "running, control=80,treat=20"])
    }

    @Test func aFileChangedUnderTheOpenScreenIsNotOverwritten() throws {
        let repo = try Repo()
        try repo.merge()
        let console = try ConsoleSession(store: repo.store.file, operatorName: "settler", settleTime: 30)
        #expect(Self.pump(console) { Self.conflicts($0)?.count == 2 })
        try repo.cli("set-description", "alpha", "a third text", as: "cli-op")
        console.send(.tab)
        console.send(.right)  // THEIRS's description, over a file that no longer holds OURS's
        console.send(.enter)
        #expect(console.state.message?.text.contains("the store changed since the conflicts screen read it") == true,
                "\(String(describing: console.state.message))")
        #expect(try repo.store.file.load().experiments["alpha"]?.description == "a third text")
        #expect(try repo.git.stages(of: repo.path).sorted() == [1, 2, 3], "nothing was staged")
    }

    @Test func aLineMergeSaysTheDriverDidNotRunAndTheWayOutWorks() throws {
        let repo = try Repo(setup: false)
        let console = try ConsoleSession(store: repo.store.file, operatorName: "settler", settleTime: 30)
        try repo.merge()  // no driver: git merges the JSON line by line, with conflict markers
        #expect(Self.pump(console) { $0.gitTrouble != nil })
        let trouble = try #require(console.state.gitTrouble)
        #expect(trouble.contains("abconsole's merge driver did not run"), "\(trouble)")
        #expect(trouble.contains("run `abconsole --store \(repo.path) git-setup`, then `git checkout -m \(repo.path)`"), "\(trouble)")
        #expect(console.state.messageLog.contains { $0.message.text.contains("merge driver did not run") }, "the log keeps it")
        // The way out it names, run as written: the driver merges the stages and the screen opens.
        try repo.cli("git-setup")
        try repo.git.run(["checkout", "-m", repo.path])
        #expect(Self.pump(console) { Self.conflicts($0)?.count == 2 && $0.gitTrouble == nil })
    }

    @Test func aConflictedFileWithoutTheMergeSaysSo() throws {
        let repo = try Repo()
        let console = try ConsoleSession(store: repo.store.file, operatorName: "settler", settleTime: 30)
        try repo.merge(["merge.abconsole.driver=false"])  // the driver does not merge: the file stays OURS's
        #expect(Self.pump(console) { $0.gitTrouble != nil })
        let trouble = try #require(console.state.gitTrouble)
        #expect(trouble.contains("does not hold both sides' changes"), "\(trouble)")
        #expect(Self.conflicts(console.state) == nil, "nothing to pick: settling OURS's file would drop THEIRS's changes")
        try repo.git.run(["checkout", "-m", repo.path])
        #expect(Self.pump(console) { Self.conflicts($0)?.count == 2 && $0.gitTrouble == nil })
    }
}
