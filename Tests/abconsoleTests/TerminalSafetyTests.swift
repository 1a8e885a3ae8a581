import Foundation
import Testing

/// Plain output never sends control characters to the terminal; `--json` keeps the exact text.
@Suite struct TerminalSafetyTests {
    static let hostileNote = "clear\u{1b}[2J\nsecond line\tend"

    @Test func aNoteWithEscapesIsShownEscapedAndKeptExactlyInJSON() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["whitelist", "add", "running_exp", "user-42", "green", "--note", Self.hostileNote])
        let plain = sandbox.ok(["whitelist", "list", "running_exp"])
        #expect(plain.lines == [
            "SUBJECT  VARIANT  NOTE                          ADDED BY  ADDED AT",
            "user-42  green    clear\\e[2J\\nsecond line\\tend  tester    2026-03-01 10:00:00 UTC",
        ])
        #expect(plain.stdout.contains("clear\\e[2J\\nsecond line\\tend"))
        #expect(!plain.stdoutData.contains(0x1B))
        #expect(plain.lines.count == 2)
        let json = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(json[0]["note"] == .string(Self.hostileNote))
        #expect(try sandbox.ok(["show", "running_exp", "--json"]).json()["whitelist"][0]["note"] == .string(Self.hostileNote))
    }

    @Test func historyShowsHostileTextEscapedAndJSONKeepsIt() throws {
        let sandbox = try Fixture.sandbox()
        // JSON text escapes C0 controls itself, but C1 controls (CSI U+009B) and bidi overrides pass through.
        let payload = "\"\u{9b}2J\u{202e}txt\""
        sandbox.ok(["set-payload", "running_exp", "green", payload])
        sandbox.ok(["whitelist", "import", "running_exp", "-"], stdin: Data("user-1,green,\"\(Self.hostileNote)\"\n".utf8))
        let plain = sandbox.ok(["history", "running_exp"])
        #expect(plain.lines.last(where: { $0.contains("set_payload") })?.hasSuffix("∅ → green \"\\u{9b}2J\\u{202e}txt\"") == true, "\(plain.lines)")
        #expect(!plain.stdout.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(plain.lines.count == 5)
        let history = try sandbox.ok(["history", "running_exp", "--json"]).json()
        #expect(history[2]["after"] == .string("green \(payload)"))
        let entries = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(entries[0]["note"] == .string(Self.hostileNote))
        let listed = sandbox.ok(["whitelist", "list", "running_exp"])
        #expect(listed.stdout.contains("clear\\e[2J\\nsecond line\\tend"))
        #expect(!listed.stdoutData.contains(0x1B))
    }

    @Test func descriptionAndPayloadAreEscapedInShowAndList() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "x", "--type", "user", "--variants", "a=50", "--description", "line\u{1b}]0;title\u{7}\nnext"])
        sandbox.ok(["set-payload", "x", "a", "\"\u{9b}31m\""])
        let shown = sandbox.ok(["show", "x"])
        #expect(shown.lines.contains("description: line\\e]0;title\\x07\\nnext"))
        #expect(shown.lines.contains { $0.hasSuffix("\"\\u{9b}31m\"") })
        #expect(!shown.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        let json = try sandbox.ok(["show", "x", "--json"]).json()
        #expect(json["description"] == "line\u{1b}]0;title\u{7}\nnext")
        #expect(json["variants"][0]["payload"] == "\u{9b}31m")
        let listed = try sandbox.ok(["list", "--json"]).json()
        #expect(listed[0]["description"] == "line\u{1b}]0;title\u{7}\nnext")
    }

    @Test(arguments: [
        (["show", "\u{1b}[2J"], "no experiment `\\e[2J` in the store"),
        (["\u{1b}[31mred"], "unknown command `\\e[31mred`"),
        (["list", "--\u{1b}[2J"], "unknown option --\\e[2J for `list`"),
        (["show", "a", "b\u{1b}c"], "unexpected argument `b\\ec`"),
        (["whitelist", "add", "running_exp", "u\u{1b}[2J", "green"], "subject id `u\\e[2J` is not valid"),
        (["whitelist", "add", "running_exp", "u", "gr\u{1b}een"], "experiment `running_exp` has no variant `gr\\eeen`"),
        (["show", "a\nb"], "no experiment `a\\nb` in the store"),
        (["create", "x\u{9b}", "--type", "user", "--variants", "a=1"], "`x\\u{9b}` is not a valid experiment key"),
    ])
    func errorMessagesEscapeWhatTheyQuote(arguments: [String], message: String) throws {
        let sandbox = try Fixture.sandbox()
        let result = sandbox.run(arguments)
        #expect([64, 65].contains(result.code))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(result.stderr.split(separator: "\n").count == (result.code == 64 ? 2 : 1))
    }

    @Test func problemsReadFromAHostileStoreAreEscaped() throws {
        let text = String(decoding: Fixture.storeBytes, as: UTF8.self)
            .replacingFirst("\"key\": \"draft_exp\"", with: "\"key\": \"\\u001b[2Jdraft\"")
        let sandbox = try Sandbox(storeBytes: Data(text.utf8))
        let result = sandbox.refused(["validate"], code: 65, "  $.experiments[0].key: `\\e[2Jdraft` breaks the key rule")
        #expect(!result.stderr.contains("\u{1b}"))
    }
}
