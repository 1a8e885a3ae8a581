import ExperimentCore
import ExperimentStore
import ExperimentTestSupport
import Foundation
import Testing

/// `GitCommands` against a real repository: the index stages of a conflicted merge come back as git's
/// bytes, so a side that is not UTF-8 stays a file no reader accepts.
@Suite struct GitCommandsTests {
    static func git(_ arguments: [String], in directory: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory, "-c", "user.name=t", "-c", "user.email=t@x"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func indexStagesAreGitsBytesNotText() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let base = Data("{\"a\": 1}\n".utf8)
        let ours = Data("{\"a\": 2}\n".utf8)
        // THEIRS holds a byte that is no UTF-8 (0xFF): decoded as text it would turn into U+FFFD, a valid string.
        let theirs = Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x20, 0x22, 0xFF, 0x22, 0x7D, 0x0A])
        let dir = directory.url.path
        #expect(Self.git(["init", "-q", "-b", "main"], in: dir) == 0)
        try base.write(to: URL(fileURLWithPath: path))
        #expect(Self.git(["add", "-A"], in: dir) == 0 && Self.git(["commit", "-q", "-m", "base"], in: dir) == 0)
        #expect(Self.git(["checkout", "-q", "-b", "other"], in: dir) == 0)
        try theirs.write(to: URL(fileURLWithPath: path))
        #expect(Self.git(["commit", "-q", "-am", "theirs"], in: dir) == 0)
        #expect(Self.git(["checkout", "-q", "main"], in: dir) == 0)
        try ours.write(to: URL(fileURLWithPath: path))
        #expect(Self.git(["commit", "-q", "-am", "ours"], in: dir) == 0)
        #expect(Self.git(["merge", "-q", "other"], in: dir) != 0, "the merge should conflict")
        let git = GitCommands(directory: dir)
        #expect(try git.stages(of: path) == [1, 2, 3])
        #expect(try git.stage(1, of: path) == base)
        #expect(try git.stage(2, of: path) == ours)
        #expect(try git.stage(3, of: path) == theirs)
        #expect(try git.operationInProgress() == "a merge")
    }
}
