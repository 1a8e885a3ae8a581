import Foundation
import Testing

/// `--help`, and inputs that must never crash the binary.
@Suite struct HelpTests {
    static let commandNames = ["demo", "list", "show", "create", "add-variant", "set-payload", "set-description", "start", "pause", "delete", "ramp",
                               "whitelist add", "whitelist note", "whitelist remove", "whitelist list", "whitelist import", "resolve", "inspect",
                               "assign", "validate", "history", "export", "results", "merge", "diff", "git-setup", "help", "completion", "set-metrics", "plan",
                               "advance", "ramp-plan", "serve"]

    @Test func overviewHelpListsEveryCommand() throws {
        let sandbox = try Sandbox()
        let result = sandbox.ok(["--help"])
        #expect(result.lines.contains("usage: abconsole [--store PATH] [--operator NAME] [COMMAND] [ARGS] [--json]"))
        for name in Self.commandNames {
            #expect(result.lines.contains { $0.hasPrefix("  \(name) ") }, "no line for \(name)")
        }
        #expect(result.stdout.contains("Exit codes: 0 ok, 64 usage, 65 refused or bad data, 66 store missing, 73/74 cannot create/write, 75 lock timeout or conflict."))
        #expect(sandbox.files().isEmpty)
        // --help wins wherever it stands, even with a missing store or an unknown command's arguments.
        #expect(sandbox.ok(["--store", "/no/such/store.json", "--help"]).stdout == result.stdout)
    }

    @Test(arguments: [
        (["show", "--help"], "usage: abconsole show EXP [--json]"),
        (["ramp", "--help"], "usage: abconsole ramp EXP NAME=PCT... [--dry-run] [--json]"),
        (["whitelist", "add", "--help"], "usage: abconsole whitelist add EXP SUBJECT VARIANT [--note TEXT] [--replace]"),
        (["whitelist", "import", "x", "--help"], "usage: abconsole whitelist import EXP FILE"),
        (["set-description", "--help"], "usage: abconsole set-description EXP TEXT"),
        (["whitelist", "note", "--help"], "usage: abconsole whitelist note EXP SUBJECT TEXT"),
        (["assign", "--help"], "usage: abconsole assign [EXP...] [--user ID] [--device ID] [--subjects FILE|-] [--json]"),
        (["create", "--help"], "usage: abconsole create EXP --type user|device --variants NAME=PCT,... [--control NAME] [--salt S] [--description TEXT]"),
        (["--help", "history"], "usage: abconsole history [EXP] [--limit N] [--since T] [--operator NAME] [--json]"),
        (["-h", "show"], "usage: abconsole show EXP [--json]"),
        (["help", "ramp"], "usage: abconsole ramp EXP NAME=PCT... [--dry-run] [--json]"),
        (["help", "whitelist", "import"], "usage: abconsole whitelist import EXP FILE"),
    ])
    func commandHelp(arguments: [String], usage: String) throws {
        let sandbox = try Sandbox()
        let result = sandbox.ok(arguments)
        #expect(result.lines.first == usage)
        #expect(result.lines.contains("options:"))
        #expect(result.lines.contains("example:"))
        #expect(result.lines.contains { $0.hasPrefix("  --store PATH") })
        #expect(result.lines.last?.hasPrefix("  abconsole ") == true)
        #expect(sandbox.files().isEmpty)
    }

    @Test func everyCommandHasHelp() throws {
        let sandbox = try Sandbox()
        for name in Self.commandNames {
            let result = sandbox.ok(name.split(separator: " ").map(String.init) + ["--help"])
            #expect(result.lines.first?.hasPrefix("usage: abconsole \(name)") == true, "\(name): \(result.lines.first ?? "")")
        }
    }

    /// Odd input of every kind: each must end with a sysexits code and a sentence, never a crash.
    static let oddInputs: [[String]] = [
        [""], ["", ""], ["--", "list"], ["-"], ["--store=", "list"], ["--operator=", "start", "draft_exp"],
        ["list", "--status="], ["show", ""], ["show", "--", "--json"], ["ramp", "running_exp", "="], ["ramp", "running_exp", "=50"],
        ["ramp", "running_exp", "green=."], ["ramp", "running_exp", "green=1."], ["ramp", "running_exp", "green=.5", "control=50.5"],
        ["ramp", "running_exp", "green=99999999999999999999999"], ["ramp", "running_exp", "green=%"], ["ramp", "running_exp", "green=50%%"],
        ["ramp", "running_exp", "green=٥٠"], ["ramp", "running_exp", "green=1e308"],
        ["create", "x", "--type", "user", "--variants", ""], ["create", "x", "--type", "user", "--variants", ","],
        ["create", "x", "--type", "user", "--variants", "a=50,"], ["create", "x", "--type", "user", "--variants", "=,="],
        ["create", "é", "--type", "user", "--variants", "a=1"], ["create", "x", "--type", "user", "--variants", "a=1", "--salt", ""],
        ["create", "x", "--type", "user", "--variants", "a=1", "--description", String(repeating: "d", count: 10_001)],
        ["add-variant", "running_exp", "blue", "--payload", ""], ["add-variant", "running_exp", "blue", "--payload", "[[[[[[[[[[[["],
        ["set-payload", "running_exp", "green", "nul"], ["set-description", "running_exp", String(repeating: "d", count: 10_001)],
        ["whitelist", "note", "running_exp", "\u{1b}", ""], ["whitelist", "add", "running_exp", "u", "green", "--note", String(repeating: "n", count: 10_001)],
        ["whitelist", "import", "running_exp", ""], ["inspect", "--user", "\u{0}"], ["assign", "running_exp", "--subjects", ""],
        ["history", ""], ["whitelist", "remove", "running_exp", "\u{1b}"], ["\u{1b}[2J"], ["--\u{1b}[2J"], ["show", "\u{1b}]0;pwned\u{7}"],
        ["resolve", "running_exp", "\u{202e}green"], ["list", "--json", "--json"], ["--help=yes"],
    ]

    @Test(arguments: oddInputs)
    func oddInputNeverCrashes(_ arguments: [String]) throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        let result = sandbox.run(arguments)
        // `run` already fails on a signal or "Fatal error".
        #expect([0, 64, 65, 66].contains(result.code), "\(result.code): \(result.stderr)")
        if result.code != 0 {
            #expect(result.stderr.hasPrefix("abconsole: "))
            #expect(result.stdout.isEmpty)
            #expect(sandbox.storeBytes() == before)
        }
        #expect(!result.stderr.contains("\u{1b}"))
        #expect(!result.stdout.contains("\u{1b}"))
    }
}
