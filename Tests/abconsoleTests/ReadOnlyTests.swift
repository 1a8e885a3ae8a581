import Foundation
import Testing
@testable import abconsole

/// `--read-only` refuses every command that writes (exit 64, nothing written) and lets reads run.
@Suite struct ReadOnlyTests {
    /// One run of each writing command that succeeds on the fixture store without `--read-only`.
    static let writes: [String: [String]] = [
        "create": ["create", "fresh_exp", "--type", "user", "--variants", "control=50,green=50"],
        "add-variant": ["add-variant", "draft_exp", "blue"],
        "set-payload": ["set-payload", "draft_exp", "green", "{\"color\":\"green\"}"],
        "set-description": ["set-description", "resolved_exp", "Green won"],
        "start": ["start", "draft_exp"],
        "pause": ["pause", "running_exp"],
        "delete": ["delete", "draft_exp"],
        "ramp": ["ramp", "running_exp", "control=40", "green=60"],
        "whitelist add": ["whitelist", "add", "running_exp", "user-1", "green"],
        "whitelist note": ["whitelist", "note", "running_exp", "user-1", "QA"],
        "whitelist remove": ["whitelist", "remove", "running_exp", "user-1"],
        "whitelist import": ["whitelist", "import", "running_exp", "-"],
        "resolve": ["resolve", "running_exp", "green", "--yes"],
        "set-metrics": ["set-metrics", "running_exp", "--goal", "buy"],
        "advance": ["advance"],
        "ramp-plan": ["ramp-plan", "running_exp", "green=10", "green=50"],
    ]

    /// Reads that must keep working with `--read-only`.
    static let reads: [[String]] = [
        ["list"], ["show", "running_exp"], ["whitelist", "list", "running_exp"], ["inspect", "--user", "u1"],
        ["assign", "running_exp", "--user", "u1"], ["validate"], ["history"], ["ramp", "running_exp", "control=40", "green=60", "--dry-run"],
        ["export", "--format", "client"], ["export", "--format", "growthbook"], ["advance", "--dry-run"],
    ]

    @Test func theTableDeclaresExactlyTheWritingCommandsTestedHere() {
        let declared = Set(commandTable.filter { if case .reads = $0.access { false } else if case .console = $0.access { false } else { true } }.map(\.name))
        #expect(declared == Set(Self.writes.keys), "every command that writes has a refusal case below")
    }

    @Test(arguments: writes.keys.sorted())
    func everyWritingCommandIsRefusedAndWritesNothing(name: String) throws {
        let arguments = try #require(Self.writes[name])
        let stdin = name == "whitelist import" ? Data("user-2,green\n".utf8) : nil
        let sandbox = try Fixture.sandbox()
        if name == "whitelist remove" || name == "whitelist note" { sandbox.ok(["whitelist", "add", "running_exp", "user-1", "green"]) }
        let hadLock = sandbox.files().contains { $0.hasSuffix(".lock") }
        for flagged in [["--read-only"] + arguments, arguments + ["--read-only"]] {
            let result = sandbox.refused(flagged, code: 64, "`\(name)` changes the store, and --read-only allows no change", stdin: stdin)
            #expect(result.stderr.contains("usage: abconsole \(name)"))
        }
        #expect(sandbox.files().contains { $0.hasSuffix(".lock") } == hadLock, "the store was not even locked")
        sandbox.ok(arguments, stdin: stdin)
    }

    /// `--read-only` protects the store; an export's `--out` is a file of the user's choosing, so it is written.
    @Test func exportWritesItsOutFileAndLeavesTheStore() throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        let out = sandbox.path("snapshot.json")
        sandbox.ok(["--read-only", "export", "--format", "client", "--out", out])
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(sandbox.storeBytes() == before)
    }

    @Test func readsStillWork() throws {
        let sandbox = try Fixture.sandbox()
        for arguments in Self.reads {
            let plain = sandbox.ok(arguments)
            #expect(sandbox.ok(["--read-only"] + arguments).stdout == plain.stdout, "\(arguments)")
        }
    }
}
