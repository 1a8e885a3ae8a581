import Foundation
import Testing

/// The command line's conveniences: did-you-mean, help and version, completion, repeated options, `assign` of everything.
@Suite struct CommandLineTests {
    @Test(arguments: [
        (["lsit"], Int32(64), "unknown command `lsit`; did you mean `list`?"),
        (["list", "--jsn"], 64, "unknown option --jsn for `list`; did you mean `--json`?"),
        (["whitelist", "ad", "running_exp", "u", "green"], 64, "`whitelist` has no subcommand `ad`; did you mean `add`?"),
        (["show", "runing_exp"], 65, "no experiment `runing_exp` in the store; did you mean `running_exp`?"),
        (["history", "paused_epx"], 65, "no experiment `paused_epx` in the store; did you mean `paused_exp`?"),
        (["ramp", "draft_ex", "green=10"], 65, "no experiment `draft_ex` in the store; did you mean `draft_exp`?"),
        (["help", "shwo"], 64, "no command `shwo`; did you mean `show`?"),
        (["completion", "bahs"], 64, "SHELL must be one of bash, zsh, fish, not `bahs`; did you mean `bash`?"),
    ])
    func didYouMean(arguments: [String], code: Int32, message: String) throws {
        let sandbox = try Fixture.sandbox()
        let result = sandbox.refused(arguments, code: code, message)
        #expect(result.stderr.hasPrefix("abconsole: \(message)\n"), "\(result.stderr)")
    }

    @Test func nothingCloseMeansNoSuggestion() throws {
        let sandbox = try Fixture.sandbox()
        #expect(!sandbox.refused(["frobnicate"], code: 64, "unknown command `frobnicate`").stderr.contains("did you mean"))
        let far = sandbox.refused(["show", "checkout"], code: 65, "no experiment `checkout` in the store; `abconsole list` shows the keys")
        #expect(!far.stderr.contains("did you mean"))
        #expect(!sandbox.refused(["list", "--zzz"], code: 64, "unknown option --zzz").stderr.contains("did you mean"))
    }

    @Test func helpVersionAndGroups() throws {
        let sandbox = try Sandbox()
        let overview = sandbox.ok(["--help"]).stdout
        #expect(sandbox.ok(["-h"]).stdout == overview)
        #expect(sandbox.ok(["help"]).stdout == overview)
        #expect(sandbox.ok(["help", "show"]).stdout == sandbox.ok(["show", "--help"]).stdout)
        #expect(sandbox.ok(["whitelist", "add", "-h"]).stdout == sandbox.ok(["help", "whitelist", "add"]).stdout)
        for group in [["whitelist", "--help"], ["whitelist", "-h"], ["help", "whitelist"], ["whitelist", "ad", "--help"]] {
            let help = sandbox.ok(group)
            #expect(help.lines.first == "usage: abconsole whitelist SUBCOMMAND [ARGS] [OPTIONS]", "\(group)")
            #expect(help.lines.contains { $0.hasPrefix("  add ") } && help.lines.contains { $0.hasPrefix("  import ") })
        }
        #expect(sandbox.ok(["--version"]).stdout == "abconsole 0.14.0 (store schema 1)\n")
        let create = sandbox.ok(["create", "--help"]).lines
        #expect(create.contains { $0.hasPrefix("  --type user|device") && $0.hasSuffix("(required)") })
        #expect(create.contains { $0.hasPrefix("  --salt S") && !$0.hasSuffix("(required)") })
        #expect(sandbox.files().isEmpty)
    }

    @Test func aRepeatedSingleValuedOptionIsAUsageError() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["assign", "running_exp", "--user", "a", "--user", "b"], code: 64, "--user is given twice (`a` and `b`); give it once")
        sandbox.refused(["inspect", "--device=a", "--device", "b"], code: 64, "--device is given twice")
        sandbox.refused(["--store", sandbox.store, "list"], code: 64, "--store is given twice")
        sandbox.refused(["whitelist", "add", "running_exp", "u", "green", "--note", "a", "--note", "b"], code: 64, "--note is given twice")
    }

    @Test func assignWithoutNamesAnswersForEveryExperiment() throws {
        let sandbox = try Fixture.sandbox()
        let all = try sandbox.ok(["assign", "--user", "user-42", "--json"]).json()
        #expect(all["unknown"] == [])
        #expect(all["variants"] == ["draft_exp": "control", "paused_exp": "control", "resolved_exp": "green", "running_exp": "control"])
        #expect(sandbox.ok(["assign", "--user", "user-42"]).lines
            == ["draft_exp\tcontrol", "paused_exp\tcontrol", "resolved_exp\tgreen", "running_exp\tcontrol"])
        let batch = sandbox.ok(["assign", "--subjects", "-"], stdin: Data("user-42\n".utf8)).lines
        #expect(batch == ["SUBJECT\tdraft_exp\tpaused_exp\tresolved_exp\trunning_exp", "user-42\tcontrol\tcontrol\tgreen\tcontrol"])
    }

    @Test func completionCandidatesComeFromTheTableAndTheStore() throws {
        let sandbox = try Fixture.sandbox()
        // The scripts call `abconsole __complete WORDS… CURRENT`; the store comes from the line or the environment.
        func complete(_ words: String...) -> [String] {
            let result = CLI.run(["__complete"] + words, env: ["ABCONSOLE_STORE": sandbox.store], directory: sandbox.directory)
            #expect(result.code == 0 && result.stderr.isEmpty, "\(words): \(result.stderr)")
            return result.lines
        }
        let words = Set(complete("").map { String($0.prefix { $0 != "\t" }) })
        #expect(words == Set(HelpTests.commandNames.map { String($0.prefix { $0 != " " }) }))
        #expect(complete("whitelist", "re") == ["remove\tRemove a subject from the whitelist."])
        #expect(complete("show", "").map { String($0.prefix { $0 != "\t" }) } == ["draft_exp", "paused_exp", "resolved_exp", "running_exp"])
        #expect(complete("--store", sandbox.store, "inspect", "--user", "u", "r") == ["resolved_exp\tresolved, user-level", "running_exp\trunning, user-level"])
        #expect(complete("--store", sandbox.path("none.json"), "show", "").isEmpty)
        #expect(complete("list", "--status", "") == ["draft", "running", "paused", "resolved"])
        #expect(complete("list", "--j") == ["--json\tprint JSON"])
        #expect(complete("completion", "") == ["bash", "zsh", "fish"])
        #expect(complete("help", "whitelist", "i") == ["import\tImport CSV lines subject,variant[,note] (or - for stdin); all or nothing."])
        #expect(complete("whitelist", "import", "running_exp", "").isEmpty, "FILE: the shell completes file names")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) throws {
        let sandbox = try Sandbox()
        let script = sandbox.ok(["completion", shell]).stdout
        #expect(script.contains("abconsole __complete") || script.contains("__complete"))
        #expect(script.contains("completion \(shell)"))
    }

    /// The bash script, run by bash, offers what `__complete` computes.
    @Test func bashScriptCompletesInBash() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
        let sandbox = try Fixture.sandbox()
        let script = try sandbox.write("complete.bash", sandbox.ok(["completion", "bash"]).stdout)
        let program = CLI.executable.path
        let driver = """
        source \(script)
        export ABCONSOLE_STORE=\(sandbox.store)
        COMP_WORDS=(\(program) whitelist a); COMP_CWORD=2; _abconsole; printf '%s\\n' "${COMPREPLY[@]}"
        COMP_WORDS=(\(program) show r); COMP_CWORD=2; _abconsole; printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = CLI.spawn(URL(fileURLWithPath: "/bin/bash"), ["-c", driver], directory: sandbox.directory).wait()
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.lines == ["add", "resolved_exp", "running_exp"])
    }
}

/// Plain output shows times in UTC, labelled, whatever the machine's zone.
@Suite struct TimeZoneOutputTests {
    @Test func plainTimesAreUTCLabelledInEveryZone() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["whitelist", "add", "running_exp", "user-1", "green"])
        for zone in ["UTC", "Asia/Tokyo", "America/New_York"] {
            let env = ["TZ": zone]
            #expect(sandbox.ok(["list"], env: env).lines[1].contains("  2026-03-01 10:00:00 UTC  tester"), "\(zone)")
            #expect(sandbox.ok(["show", "running_exp"], env: env).lines.contains("updated:     2026-03-01 10:00:00 UTC by tester"))
            #expect(sandbox.ok(["whitelist", "list", "running_exp"], env: env).lines[1].hasSuffix("tester    2026-03-01 10:00:00 UTC"))
            #expect(sandbox.ok(["history", "running_exp"], env: env).lines[1].hasPrefix("2026-03-01 10:00:00 UTC  tester"))
        }
    }
}

/// `demo` removes its scratch copy when the console ends, unless `--keep`, and says which.
@Suite struct DemoTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-data/experiments.json").path

    @Test func theScratchCopyIsRemovedUnlessKept() throws {
        let sandbox = try Sandbox()
        let env = ["TMPDIR": sandbox.directory.path, "ABCONSOLE_SAMPLE": Self.sample]
        // No terminal here: the console refuses to open (64), and the copy is still cleaned up.
        let removed = CLI.run(["demo"], env: env, directory: sandbox.directory)
        #expect(removed.code == 64)
        #expect(removed.stdout == "demo store removed (run `abconsole demo --keep` to keep the scratch copy)\n")
        #expect(sandbox.files().isEmpty, "\(sandbox.files())")
        let kept = CLI.run(["demo", "--keep"], env: env, directory: sandbox.directory)
        #expect(kept.code == 64)
        let path = kept.stdout.hasPrefix("demo store kept at ") ? String(kept.stdout.dropFirst(19).dropLast()) : ""
        #expect(path.hasPrefix(sandbox.directory.path + "/abconsole-demo-"), "\(kept.stdout)")
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: Self.sample))
    }
}
