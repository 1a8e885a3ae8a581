import Foundation
import Testing

/// The bytes of `--json` output: `"key": value`, empty arrays as `[]`, variants in their order.
@Suite struct JSONOutputTests {
    /// Every `--json` command of the fixture store, as run against it.
    static let commands: [[String]] = [
        ["list", "--json"], ["show", "running_exp", "--json"], ["whitelist", "list", "running_exp", "--json"],
        ["inspect", "--user", "u-1", "--json"], ["assign", "running_exp", "--user", "u-1", "--json"], ["history", "--json"],
        ["ramp", "running_exp", "control=40", "green=60", "--dry-run", "--json"],
    ]

    @Test(arguments: commands)
    func everyJSONCommandPutsNoSpaceBeforeAColon(arguments: [String]) throws {
        let sandbox = try Fixture.sandbox()
        let result = sandbox.ok(arguments)
        _ = try result.json()
        #expect(!result.stdout.contains("\" :"), "\(result.stdout)")
        #expect(!result.stdout.contains("[\n"+"\n"), "an empty array over two lines: \(result.stdout)")
    }

    @Test func prettyOutputIsLaidOutByteForByte() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["whitelist", "list", "running_exp", "--json"]).stdout == "[]\n")
        let show = sandbox.ok(["show", "draft_exp", "--json"]).stdout
        #expect(show.hasPrefix("{\n  \"control\": \"control\",\n  \"created_at\": \"2026-03-01T10:00:00Z\",\n"))
        #expect(show.contains("\n  \"whitelist\": [],\n"))
        #expect(show.contains("\"ranges\": [\n        [\n          0,\n          5000\n        ]\n      ],"))
        #expect(sandbox.ok(["assign", "running_exp", "--user", "u-1", "--json"]).stdout == "{\"unknown\":[],\"variants\":{\"running_exp\":\"green\"}}\n")
    }

    @Test func listKeepsTheVariantOrder() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "order", "--type", "user", "--variants", "zulu=10,alpha=20,mike=70"])
        let row = try sandbox.ok(["list", "--json"]).json()[0]
        #expect(row["variants"] == [["name": "zulu", "weight": 10], ["name": "alpha", "weight": 20], ["name": "mike", "weight": 70]])
    }

    @Test func stringsWithQuotesBracketsAndColonsSurviveTheLayout() throws {
        let sandbox = try Fixture.sandbox()
        let note = #"a "quoted" note: [x], {y} \ and, commas"#
        sandbox.ok(["whitelist", "add", "running_exp", "user:[1]", "green", "--note", note])
        let entries = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(entries[0]["note"] == .string(note))
        #expect(entries[0]["subject"] == "user:[1]")
    }
}
