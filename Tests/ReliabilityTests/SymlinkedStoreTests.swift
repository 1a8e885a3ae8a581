import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
import Testing

/// A store reached through a symlink from outside its repository: the CLI and the console name the
/// same file to git (the link's target), so both commit their import there through the one store
/// service, and the console's title bar reads that file's state.
@Suite(.serialized) struct SymlinkedStoreTests {
    /// A repository whose store commits each change (`git-setup --commit-changes`), a link to that
    /// store from another directory, and a CSV to import.
    final class Linked {
        let repo: TempStore
        let outside: TempStore
        var link: String { outside.path }
        var git: GitCommands { GitCommands(directory: repo.directory) }

        init() throws {
            repo = try TempStore()
            outside = try TempStore()
            try git.run(["init", "-q", "-b", "main"])
            try git.run(["config", "user.name", "tester"])
            try git.run(["config", "user.email", "tester@example.com"])
            try repo.createRunning("alpha")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: repo.path)
            #expect(cli(["git-setup", "--commit-changes"]).code == 0)
            try git.run(["add", "-A"])
            try git.run(["commit", "-q", "-m", "base"])
        }

        /// A CSV of `subjects` in `treat`, written outside the repository.
        func csv(_ subjects: [String]) throws -> String {
            let path = outside.directory + "/import-\(subjects.joined(separator: "-")).csv"
            try Data(subjects.map { "\($0),treat,partner\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// The real `abconsole` on the link as `cli-op`: its exit code and stderr.
        func cli(_ arguments: [String]) -> (code: Int32, stderr: String) {
            let process = Process()
            process.executableURL = ConsoleSettleConflictsTests.Repo.executable
            process.currentDirectoryURL = URL(fileURLWithPath: outside.directory)
            process.arguments = ["--store", link, "--operator", "cli-op"] + arguments
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            guard (try? process.run()) != nil else { return (-1, "") }
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        /// The subjects of the repository's commits, newest first, and whether the store is as HEAD has it.
        func log() throws -> (subjects: [String], clean: Bool) {
            let subjects = try git.run(["log", "--format=%s"]).split(separator: "\n").map(String.init)
            return (subjects, try git.run(["status", "--porcelain", "--", repo.path]).isEmpty)
        }
    }

    @Test func theCLIAndTheConsoleCommitTheLinksTargetAlike() throws {
        let linked = try Linked()
        let byCLI = linked.cli(["whitelist", "import", "alpha", try linked.csv(["user-1"])])
        #expect(byCLI.code == 0 && byCLI.stderr.isEmpty, "\(byCLI)")
        var log = try linked.log()
        #expect(log.subjects.count == 2 && log.clean, "\(log)")
        #expect(log.subjects.first?.hasPrefix("whitelist_import alpha: ") == true, "\(log.subjects)")

        let console = try ConsoleSession(store: StoreFile(path: linked.link), operatorName: "console-op", settleTime: 30)
        #expect(ConsoleSettleConflictsTests.pump(console) { $0.git == GitStatus(branch: "main", store: .committed) },
                "the title bar reads the link's target: \(String(describing: console.state.git))")
        console.send(.character("w"))
        console.send(.character("I"))
        console.type(try linked.csv(["user-2"]))
        console.send(.enter)
        let message = try #require(console.state.message)
        #expect(!message.isError && !message.text.contains("not committed"), "\(message)")
        log = try linked.log()
        #expect(log.subjects.count == 3 && log.clean, "\(log)")
        #expect(log.subjects.first?.hasPrefix("whitelist_import alpha: ") == true, "\(log.subjects)")
        let alpha = try #require(try linked.repo.file.load().experiments["alpha"])
        #expect(alpha.whitelist.values.map(\.addedBy).sorted() == ["cli-op", "console-op"])
    }
}
