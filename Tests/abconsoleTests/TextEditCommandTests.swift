import Foundation
import Testing

/// `set-description` and `whitelist note`: the console's two text edits, from the command line.
@Suite struct TextEditCommandTests {
    @Test func setDescriptionWritesItAndItsHistoryThenClearsIt() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["set-description", "running_exp", "Does green lift checkouts?"], env: ["ABCONSOLE_OPERATOR": "maria.pm"]).stdout
            == "changed the description of `running_exp`\n")
        #expect(try sandbox.ok(["show", "running_exp", "--json"]).json()["description"] == "Does green lift checkouts?")
        var last = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.last
        #expect(last?["action"] == "set_description")
        #expect(last?["operator"] == "maria.pm")
        #expect(last?["before"] == "")
        #expect(last?["after"] == "Does green lift checkouts?")
        #expect(sandbox.ok(["set-description", "running_exp", ""]).stdout == "cleared the description of `running_exp`\n")
        #expect(try sandbox.ok(["show", "running_exp", "--json"]).json()["description"] == "")
        last = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.last
        #expect(last?["before"] == "Does green lift checkouts?")
        #expect(last?["after"] == "")
    }

    /// A description serves nobody, so the core allows it even on a resolved experiment.
    @Test func setDescriptionWorksOnAResolvedExperiment() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["set-description", "resolved_exp", "Green won"]).stdout == "changed the description of `resolved_exp`\n")
    }

    @Test func setDescriptionRefusals() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["set-description", "runing_exp", "x"], code: 65, "no experiment `runing_exp` in the store; did you mean `running_exp`?")
        sandbox.refused(["set-description", "running_exp", String(repeating: "d", count: 10_001)], code: 65, "description")
        sandbox.refused(["set-description", "running_exp"], code: 64, "usage: abconsole set-description EXP TEXT")
        sandbox.refused(["--read-only", "set-description", "running_exp", "x"], code: 64, "`set-description` changes the store, and --read-only allows no change")
        sandbox.refused(["set-descripton", "running_exp", "x"], code: 64, "did you mean `set-description`?")
    }

    @Test func whitelistNoteKeepsTheVariantAndWritesTheHistory() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["whitelist", "add", "running_exp", "user-42", "green", "--note", "QA"])
        #expect(sandbox.ok(["whitelist", "note", "running_exp", "user-42", "QA account, keep"], env: ["ABCONSOLE_OPERATOR": "ops"]).stdout
            == "changed the note of `user-42` in the whitelist of `running_exp`\n")
        let entries = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(entries == [["subject": "user-42", "variant": "green", "note": "QA account, keep", "added_by": "ops", "added_at": "2026-03-01T10:00:00Z"]])
        let last = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.last
        #expect(last?["action"] == "whitelist_add")
        #expect(last?["before"] == #"user-42=green note="QA""#)
        #expect(last?["after"] == #"user-42=green note="QA account, keep""#)
        sandbox.ok(["whitelist", "note", "running_exp", "user-42", ""])
        #expect(try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()[0]["note"] == "")
    }

    @Test func whitelistNoteRefusals() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["whitelist", "note", "running_exp", "user-9", "x"], code: 65,
                        "subject `user-9` is not on the whitelist of `running_exp`; add it with `abconsole whitelist add running_exp user-9 VARIANT --note TEXT`")
        sandbox.refused(["whitelist", "note", "runing_exp", "user-9", "x"], code: 65, "no experiment `runing_exp` in the store; did you mean `running_exp`?")
        sandbox.refused(["whitelist", "note", "resolved_exp", "user-9", "x"], code: 65, "experiment `resolved_exp` is resolved; its whitelist can no longer change")
        sandbox.refused(["whitelist", "note", "running_exp", "user-9"], code: 64, "usage: abconsole whitelist note EXP SUBJECT TEXT")
        sandbox.refused(["whitelist", "nte", "running_exp", "user-9", "x"], code: 64, "did you mean `note`?")
        sandbox.ok(["whitelist", "add", "running_exp", "user-1", "green"])
        sandbox.refused(["whitelist", "note", "running_exp", "user-1", "x", "--read-only"], code: 64,
                        "`whitelist note` changes the store, and --read-only allows no change")
        sandbox.refused(["whitelist", "note", "running_exp", "user-1", String(repeating: "n", count: 10_001)], code: 65, "note")
    }

    @Test func helpAndCompletionListBoth() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["set-description", "--help"]).lines.contains("Set an experiment's description (what it tests); an empty TEXT clears it."))
        #expect(sandbox.ok(["whitelist", "note", "--help"]).stdout.contains("keeping its variant"))
        #expect(sandbox.ok(["whitelist", "--help"]).lines.contains { $0.hasPrefix("  note ") })
        #expect(sandbox.ok(["--help"]).lines.contains { $0.hasPrefix("  set-description ") })
        func complete(_ words: String...) -> [String] {
            let result = CLI.run(["__complete"] + words, env: ["ABCONSOLE_STORE": sandbox.store], directory: sandbox.directory)
            #expect(result.code == 0 && result.stderr.isEmpty, "\(words): \(result.stderr)")
            return result.lines.map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(complete("set-d") == ["set-description"])
        #expect(complete("whitelist", "n") == ["note"])
        #expect(complete("whitelist", "note", "run") == ["running_exp"])
        #expect(complete("set-description", "res") == ["resolved_exp"])
    }
}
