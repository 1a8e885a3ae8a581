import Foundation
import Testing

/// One command the CLI must refuse on the fixture store, with its exit code and message.
struct Refusal: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let code: Int32
    /// The message (or its key phrase) after `abconsole: `.
    let message: String
    /// The second stderr line of a usage error.
    var usage: String? = nil
    var env: [String: String] = [:]
    var stdin: String? = nil

    var testDescription: String { arguments.joined(separator: " ") + (env.isEmpty ? "" : " \(env)") }
}

/// Every refusal: exact exit code, the sentence on stderr, nothing on stdout, and the store unchanged.
@Suite struct RefusalTests {
    static let seeHelp = "Run `abconsole --help` for the commands."
    static let seeGroupHelp = "Run `abconsole whitelist --help` for its subcommands."

    static let dataErrors: [Refusal] = [
        // Unknown experiment.
        Refusal(arguments: ["show", "nope"], code: 65, message: "no experiment `nope` in the store; `abconsole list` shows the keys"),
        Refusal(arguments: ["start", "nope"], code: 65, message: "no experiment `nope` in the store"),
        Refusal(arguments: ["delete", "nope"], code: 65, message: "no experiment `nope` in the store"),
        Refusal(arguments: ["whitelist", "add", "nope", "u", "control"], code: 65, message: "no experiment `nope` in the store"),
        Refusal(arguments: ["whitelist", "list", "nope"], code: 65, message: "no experiment `nope` in the store"),
        Refusal(arguments: ["ramp", "nope", "control=10", "--dry-run"], code: 65, message: "no experiment `nope` in the store"),
        Refusal(arguments: ["inspect", "nope", "--user", "u"], code: 65, message: "no experiment `nope` in the store"),
        // Unknown variant.
        Refusal(arguments: ["whitelist", "add", "running_exp", "u", "purple"], code: 65,
                message: "experiment `running_exp` has no variant `purple`; its variants are `control`, `green`"),
        Refusal(arguments: ["ramp", "running_exp", "purple=10"], code: 65, message: "experiment `running_exp` has no variant `purple`"),
        Refusal(arguments: ["resolve", "running_exp", "purple"], code: 65, message: "experiment `running_exp` has no variant `purple`"),
        Refusal(arguments: ["set-payload", "running_exp", "purple", "1"], code: 65, message: "experiment `running_exp` has no variant `purple`"),
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "a=50,b=50", "--control", "c"], code: 65,
                message: "experiment `x` has no variant `c`; its variants are `a`, `b`"),
        // Weights.
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "a=60,b=50"], code: 65,
                message: "the weights of `x` would add up to 110 %; they may add up to 100 % at most"),
        Refusal(arguments: ["ramp", "running_exp", "green=70"], code: 65,
                message: "the weights of `running_exp` would add up to 120 %; they may add up to 100 % at most"),
        Refusal(arguments: ["ramp", "running_exp", "green=50.01", "--dry-run"], code: 65, message: "would add up to 100.01 %"),
        Refusal(arguments: ["ramp", "running_exp", "green=101"], code: 65, message: "weight `101` is over 100 %"),
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "a=10.125"], code: 65,
                message: "weight `10.125` has more than two decimals (0.01 % is the smallest step)"),
        Refusal(arguments: ["ramp", "running_exp", "green=0.001"], code: 65, message: "weight `0.001` has more than two decimals"),
        Refusal(arguments: ["ramp", "running_exp", "green=ten"], code: 65, message: "weight `ten` is not a percentage (use a number such as 12.5)"),
        Refusal(arguments: ["ramp", "running_exp", "green=-5"], code: 65, message: "weight `-5` is not a percentage"),
        Refusal(arguments: ["ramp", "running_exp", "green=1e2"], code: 65, message: "weight `1e2` is not a percentage"),
        Refusal(arguments: ["ramp", "running_exp", "green="], code: 65, message: "weight `` is not a percentage"),
        Refusal(arguments: ["ramp", "running_exp", "green=10", "green=20"], code: 65, message: "variant `green` is named twice"),
        // Keys, names, subjects, salts, payloads, operators.
        Refusal(arguments: ["create", "Bad_Key", "--type", "user", "--variants", "a=50"], code: 65,
                message: "`Bad_Key` is not a valid experiment key; use 1–64 characters from a-z, 0-9, `_`, `.`, `-`, starting with a letter or digit"),
        Refusal(arguments: ["create", "_x", "--type", "user", "--variants", "a=50"], code: 65, message: "`_x` is not a valid experiment key"),
        Refusal(arguments: ["create", String(repeating: "k", count: 65), "--type", "user", "--variants", "a=50"], code: 65, message: "is not a valid experiment key"),
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "A=50"], code: 65, message: "`A` is not a valid variant name"),
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "a=10,a=20"], code: 65,
                message: "variant `a` is named twice; each variant needs its own name"),
        Refusal(arguments: ["create", "running_exp", "--type", "user", "--variants", "a=50"], code: 65,
                message: "experiment `running_exp` already exists; pick another key"),
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "a=50", "--salt", "a\nb"], code: 65,
                message: "the salt must be 1–256 characters without control characters"),
        Refusal(arguments: ["add-variant", "running_exp", "Blue"], code: 65, message: "`Blue` is not a valid variant name"),
        Refusal(arguments: ["add-variant", "running_exp", "green"], code: 65, message: "variant `green` is named twice"),
        Refusal(arguments: ["add-variant", "running_exp", "blue", "--payload", "{nope"], code: 65, message: "the payload is not valid JSON: `{nope`"),
        Refusal(arguments: ["whitelist", "add", "running_exp", "user\u{7}1", "green"], code: 65,
                message: "subject id `user\\x071` is not valid; use 1–256 characters without control characters"),
        Refusal(arguments: ["whitelist", "add", "running_exp", "user\u{9b}1", "green"], code: 65, message: "subject id `user\\u{9b}1` is not valid"),
        Refusal(arguments: ["whitelist", "add", "running_exp", String(repeating: "s", count: 257), "green"], code: 65, message: "is not valid; use 1–256 characters"),
        Refusal(arguments: ["whitelist", "add", "running_exp", "", "green"], code: 65, message: "subject id `` is not valid"),
        Refusal(arguments: ["inspect", "--user", "a\tb"], code: 65, message: "subject id `a\\tb` is not valid"),
        Refusal(arguments: ["assign", "running_exp", "--device", ""], code: 65, message: "subject id `` is not valid"),
        Refusal(arguments: ["start", "draft_exp", "--operator", "a\u{1b}b"], code: 65, message: "operator `a\\eb` is not valid"),
        // Lifecycle (a start of a running and a pause of a paused experiment succeed without writing: ExperimentCommandTests).
        Refusal(arguments: ["pause", "draft_exp"], code: 65, message: "`draft_exp` is a draft: start it before pausing (a draft serves no one)"),
        Refusal(arguments: ["pause", "resolved_exp"], code: 65, message: "experiment `resolved_exp` is resolved; its status can no longer change"),
        Refusal(arguments: ["resolve", "draft_exp", "green"], code: 65, message: "`draft_exp` is a draft: start it before resolving"),
        Refusal(arguments: ["start", "resolved_exp"], code: 65, message: "experiment `resolved_exp` is resolved; its status can no longer change"),
        Refusal(arguments: ["resolve", "resolved_exp", "control"], code: 65, message: "experiment `resolved_exp` is resolved; its winner can no longer change"),
        Refusal(arguments: ["ramp", "resolved_exp", "green=60", "control=40"], code: 65,
                message: "experiment `resolved_exp` is resolved; its weights can no longer change"),
        Refusal(arguments: ["ramp", "resolved_exp", "green=60", "control=40", "--dry-run", "--json"], code: 65,
                message: "experiment `resolved_exp` is resolved; its weights can no longer change"),
        Refusal(arguments: ["whitelist", "add", "resolved_exp", "u", "green"], code: 65,
                message: "experiment `resolved_exp` is resolved; its whitelist can no longer change"),
        Refusal(arguments: ["whitelist", "remove", "resolved_exp", "u"], code: 65, message: "experiment `resolved_exp` is resolved; its whitelist can no longer change"),
        Refusal(arguments: ["whitelist", "import", "resolved_exp", "-"], code: 65,
                message: "experiment `resolved_exp` is resolved; its whitelist can no longer change", stdin: "u,green\n"),
        Refusal(arguments: ["add-variant", "resolved_exp", "blue"], code: 65, message: "experiment `resolved_exp` is resolved; its variants can no longer change"),
        Refusal(arguments: ["set-payload", "resolved_exp", "green", "1"], code: 65, message: "experiment `resolved_exp` is resolved; its payloads can no longer change"),
        Refusal(arguments: ["delete", "running_exp"], code: 65,
                message: "experiment `running_exp` is running and has been served; only drafts can be deleted, because old clients keep asking for served experiments"),
        Refusal(arguments: ["delete", "paused_exp"], code: 65, message: "experiment `paused_exp` is paused and has been served"),
        Refusal(arguments: ["delete", "resolved_exp"], code: 65, message: "experiment `resolved_exp` is resolved and has been served"),
        // Input files.
        Refusal(arguments: ["whitelist", "import", "running_exp", "missing.csv"], code: 66, message: "cannot open missing.csv: it does not exist"),
        Refusal(arguments: ["whitelist", "import", "running_exp", "."], code: 66, message: "cannot open .: it is a directory, not a file"),
        Refusal(arguments: ["assign", "running_exp", "--subjects", "missing.txt"], code: 66, message: "cannot open missing.txt: it does not exist"),
    ]

    static let usageErrors: [Refusal] = [
        Refusal(arguments: ["frobnicate"], code: 64, message: "unknown command `frobnicate`", usage: seeHelp),
        Refusal(arguments: ["whitelist"], code: 64, message: "`whitelist` needs a subcommand: add, note, remove, list, import; e.g. `abconsole whitelist add --help`", usage: seeGroupHelp),
        Refusal(arguments: ["whitelist", "purge", "running_exp"], code: 64, message: "`whitelist` has no subcommand `purge`; its subcommands are add, note, remove, list, import", usage: seeGroupHelp),
        Refusal(arguments: ["--bogus", "list"], code: 64, message: "unknown option --bogus", usage: seeHelp),
        Refusal(arguments: ["list", "--bogus"], code: 64, message: "unknown option --bogus for `list`", usage: "usage: abconsole list [--status S] [--json]"),
        Refusal(arguments: ["start", "draft_exp", "--json"], code: 64, message: "unknown option --json for `start`", usage: "usage: abconsole start EXP"),
        Refusal(arguments: ["show"], code: 64, message: "missing EXP", usage: "usage: abconsole show EXP [--json]"),
        Refusal(arguments: ["show", "a", "b"], code: 64, message: "unexpected argument `b`", usage: "usage: abconsole show EXP [--json]"),
        Refusal(arguments: ["whitelist", "add", "running_exp", "u"], code: 64, message: "missing VARIANT",
                usage: "usage: abconsole whitelist add EXP SUBJECT VARIANT [--note TEXT] [--replace]"),
        Refusal(arguments: ["ramp", "running_exp"], code: 64, message: "missing NAME=PCT",
                usage: "usage: abconsole ramp EXP NAME=PCT... [--dry-run] [--json]"),
        Refusal(arguments: ["list", "--status"], code: 64, message: "--status needs a value (S)", usage: "usage: abconsole list [--status S] [--json]"),
        Refusal(arguments: ["list", "--store"], code: 64, message: "--store needs a value (PATH)"),
        Refusal(arguments: ["list", "--json=yes"], code: 64, message: "--json takes no value"),
        Refusal(arguments: ["list", "--status", "done"], code: 64, message: "--status must be one of draft, running, paused, resolved, not `done`"),
        Refusal(arguments: ["create", "x", "--variants", "a=50"], code: 64, message: "missing --type user|device",
                usage: "usage: abconsole create EXP --type user|device --variants NAME=PCT,... [--control NAME] [--salt S] [--description TEXT]"),
        Refusal(arguments: ["create", "x", "--type", "team", "--variants", "a=50"], code: 64, message: "--type must be user or device, not `team`"),
        Refusal(arguments: ["create", "x", "--type", "user"], code: 64, message: "missing --variants NAME=PCT,..."),
        Refusal(arguments: ["create", "x", "--type", "user", "--variants", "a"], code: 64, message: "`a` is not NAME=PCT (e.g. treatment=30)"),
        Refusal(arguments: ["ramp", "running_exp", "green"], code: 64, message: "`green` is not NAME=PCT"),
        Refusal(arguments: ["set-payload", "running_exp", "green", "1", "--clear"], code: 64, message: "give either a JSON payload or --clear"),
        Refusal(arguments: ["set-payload", "running_exp", "green"], code: 64, message: "give either a JSON payload or --clear"),
        Refusal(arguments: ["assign", "running_exp", "--subjects", "-", "--user", "u"], code: 64,
                message: "--subjects cannot be combined with --user or --device", stdin: "u\n"),
        Refusal(arguments: ["start", "draft_exp"], code: 64, message: "ABCONSOLE_LOCK_TIMEOUT must be a number of seconds, not `soon`",
                env: ["ABCONSOLE_LOCK_TIMEOUT": "soon"]),
        Refusal(arguments: ["start", "draft_exp"], code: 64, message: "ABCONSOLE_NOW must be a real UTC time in the form 2026-01-31T09:30:00Z (years 1900–9999), not `yesterday`",
                env: ["ABCONSOLE_NOW": "yesterday"]),
    ]

    @Test(arguments: dataErrors + usageErrors)
    func refused(_ refusal: Refusal) throws {
        let sandbox = try Fixture.sandbox()
        let result = sandbox.refused(refusal.arguments, code: refusal.code, refusal.message,
                                     stdin: refusal.stdin.map { Data($0.utf8) }, env: refusal.env)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        if refusal.code == 64 {
            // The sentence, then the command's usage line (or where to find the commands).
            #expect(lines.count == 3, "\(lines)")
            if let usage = refusal.usage { #expect(lines.dropFirst().first == usage) }
        } else {
            // One sentence on one line.
            #expect(lines.count == 2, "\(lines)")
        }
        #expect(!result.stderr.contains("\u{1b}"))
    }

    @Test func refusedCreateOnAMissingStoreCreatesNoStore() throws {
        let sandbox = try Sandbox()
        sandbox.refused(["create", "x", "--type", "user", "--variants", "a=60,b=50"], code: 65, "would add up to 110 %")
        #expect(sandbox.storeBytes() == nil)
    }
}
