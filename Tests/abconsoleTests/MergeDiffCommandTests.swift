import Foundation
import Testing

/// `abconsole merge` and `abconsole diff` as git calls them, with the real binary: add/add (an empty
/// BASE), messages naming `--name`'s path, git's one-argument diff, a store that does not validate.
struct MergeDiffCommandTests {
    /// Copies of the sandbox's store: `ours` ramped, `theirs` with a whitelist entry.
    static func sides(_ sandbox: Sandbox) throws -> (ours: String, theirs: String) {
        sandbox.ok(["create", "alpha", "--type", "user", "--variants", "control=50,treat=50"])
        let ours = sandbox.path("ours.json"), theirs = sandbox.path("theirs.json")
        try FileManager.default.copyItem(atPath: sandbox.store, toPath: ours)
        try FileManager.default.copyItem(atPath: sandbox.store, toPath: theirs)
        #expect(CLI.run(["--store", ours, "ramp", "alpha", "control=20", "treat=80"]).code == 0)
        #expect(CLI.run(["--store", theirs, "whitelist", "add", "alpha", "user-1", "treat"]).code == 0)
        return (ours, theirs)
    }

    @Test func bothSidesAddingTheStoreMergeAgainstAnEmptyBase() throws {
        let sandbox = try Sandbox()
        let (ours, theirs) = try Self.sides(sandbox)
        let empty = sandbox.path(".merge_file_base")
        try Data().write(to: URL(fileURLWithPath: empty))
        let result = CLI.run(["merge", empty, ours, theirs, "--name", "experiments.json", "--json"])
        // Created on both sides under one key: its units merge against nothing (rule 2): the allocation conflicts.
        #expect(result.code == 1, "\(result.stderr)")
        #expect(try result.json()["conflicts"][0]["unit"].stringValue == "allocation")
    }

    @Test func aMergeRefusalNamesTheStoresPathOnOneLine() throws {
        let sandbox = try Sandbox()
        let (ours, _) = try Self.sides(sandbox)
        let broken = sandbox.path(".merge_file_theirs")
        try Data("{\"experiments\": [], \"history\": [], \"revision\": 1, \"schema_version\": 1, \"x\": \n".utf8).write(to: URL(fileURLWithPath: broken))
        let result = CLI.run(["merge", sandbox.store, ours, broken, "--name", "config/experiments.json"])
        #expect(result.code == 65)
        #expect(result.stderr.contains("THEIRS of config/experiments.json is not a valid store"), "\(result.stderr)")
        #expect(!result.stderr.contains(".merge_file_theirs") && !result.stderr.contains("\\n"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func gitsOneArgumentDiffOfAnUnmergedPathSaysSo() {
        let result = CLI.run(["diff", "experiments.json"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("experiments.json is unmerged: settle the conflict"))
    }

    @Test func aStoreThatDoesNotValidateIsShownAsALineDiffWithAWarning() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "alpha", "--type", "user", "--variants", "control=50,treat=50"])
        let text = try String(contentsOfFile: sandbox.store, encoding: .utf8)
        let edited = sandbox.path("edited.json")
        try text.replacingOccurrences(of: "\"status\": \"draft\"", with: "\"status\": \"sideways\"").write(toFile: edited, atomically: true, encoding: .utf8)
        for arguments in [["diff", sandbox.store, edited], ["diff", "experiments.json", sandbox.store, "1", "100644", edited, "2", "100644"]] {
            let result = CLI.run(arguments)
            #expect(result.code == 0)
            #expect(result.stderr.hasPrefix("abconsole: warning: NEW") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.lines.contains("-      \"status\": \"draft\","))
            #expect(result.lines.contains("+      \"status\": \"sideways\","))
            #expect(!result.lines.contains { $0.contains("\"key\": \"alpha\"") }, "the lines both share are left out")
        }
    }
}
