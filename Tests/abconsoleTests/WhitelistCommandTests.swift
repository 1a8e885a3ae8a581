import Foundation
import Testing

/// `whitelist add | remove | list | import`.
@Suite struct WhitelistCommandTests {
    @Test func addListRemoveWithJSON() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["whitelist", "add", "running_exp", "user-42", "green", "--note", "QA account"]).stdout
            == "whitelisted `user-42` into `green` of `running_exp`\n")
        sandbox.ok(["whitelist", "add", "running_exp", "emp-1001", "control"], env: ["ABCONSOLE_OPERATOR": "dev.jonas"])
        let entries = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(entries == [
            ["subject": "emp-1001", "variant": "control", "note": "", "added_by": "dev.jonas", "added_at": "2026-03-01T10:00:00Z"],
            ["subject": "user-42", "variant": "green", "note": "QA account", "added_by": "tester", "added_at": "2026-03-01T10:00:00Z"],
        ])
        #expect(try sandbox.ok(["show", "running_exp", "--json"]).json()["whitelist"] == entries)
        #expect(sandbox.ok(["whitelist", "list", "running_exp"]).lines == [
            "SUBJECT   VARIANT  NOTE        ADDED BY   ADDED AT",
            "emp-1001  control              dev.jonas  2026-03-01 10:00:00 UTC",
            "user-42   green    QA account  tester     2026-03-01 10:00:00 UTC",
        ])
        #expect(sandbox.ok(["whitelist", "remove", "running_exp", "emp-1001"]).stdout == "removed `emp-1001` from the whitelist of `running_exp`\n")
        #expect(try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json().elements.map(\.["subject"]) == ["user-42"])
        sandbox.refused(["whitelist", "remove", "running_exp", "emp-1001"], code: 65, "subject `emp-1001` is not on the whitelist of `running_exp`")
        let history = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.suffix(3)
        #expect(history.map(\.["action"]) == ["whitelist_add", "whitelist_add", "whitelist_remove"])
        #expect(history.map(\.["after"]) == [#"user-42=green note="QA account""#, #"emp-1001=control note="""#, nil])
        #expect(history.map(\.["before"]) == [nil, nil, #"emp-1001=control note="""#])
    }

    @Test func addingAListedSubjectIsRefusedUnlessReplace() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["whitelist", "add", "draft_exp", "user-42", "green", "--note", "QA account"])
        sandbox.refused(["whitelist", "add", "draft_exp", "user-42", "control", "--note", "moved"], code: 65,
                        "subject `user-42` is already whitelisted in `draft_exp`: variant `green`, note \"QA account\", added by tester at 2026-03-01 10:00:00 UTC; add --replace to replace it")
        #expect(sandbox.ok(["whitelist", "add", "draft_exp", "user-42", "control", "--note", "moved", "--replace"], env: ["ABCONSOLE_OPERATOR": "ops"]).stdout
            == "replaced `user-42` in the whitelist of `draft_exp`: `green` → `control`\n")
        let entries = try sandbox.ok(["whitelist", "list", "draft_exp", "--json"]).json()
        #expect(entries == [["subject": "user-42", "variant": "control", "note": "moved", "added_by": "ops", "added_at": "2026-03-01T10:00:00Z"]])
        let last = try sandbox.ok(["history", "draft_exp", "--json"]).json().elements.last
        #expect(last?["before"] == #"user-42=green note="QA account""#)
        #expect(last?["after"] == #"user-42=control note="moved""#)
        #expect(sandbox.ok(["history", "draft_exp"]).lines.last?.hasSuffix(#"whitelist_add  user-42=green note="QA account" → user-42=control note="moved""#) == true)
    }

    @Test func anEmptyWhitelistListsAsAnEmptyArray() throws {
        let sandbox = try Fixture.sandbox()
        #expect(try sandbox.ok(["whitelist", "list", "paused_exp", "--json"]).json() == [])
        #expect(sandbox.ok(["whitelist", "list", "paused_exp"]).lines == ["SUBJECT  VARIANT  NOTE  ADDED BY  ADDED AT"])
    }

    @Test func importFromAFileWithHeaderQuotesAndCRLF() throws {
        let sandbox = try Fixture.sandbox()
        let csv = try sandbox.write("partners.csv", "subject,variant,note\r\nuser-1,green,\"Partner, Inc.\"\r\n\r\nuser-2,control\r\n\"user \"\"3\"\"\",green,\"two\nlines\"\r\n")
        #expect(sandbox.ok(["whitelist", "import", "running_exp", csv]).stdout
            == "imported 3 entries (3 new, 0 replaced) into the whitelist of `running_exp`\n")
        let entries = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(entries.elements.map(\.["subject"]) == ["user \"3\"", "user-1", "user-2"])
        #expect(entries.elements.map(\.["variant"]) == ["green", "green", "control"])
        #expect(entries.elements.map(\.["note"]) == ["two\nlines", "Partner, Inc.", ""])
        let last = try sandbox.ok(["history", "--json"]).json().elements.last
        #expect(last?["action"] == "whitelist_import")
        #expect(last?["after"] == #"3 entries (3 new, 0 replaced); new: "user-1", "user-2", "user \"3\"""#)
    }

    @Test func importFromStandardInputReplacesExistingEntries() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["whitelist", "add", "paused_exp", "user-1", "control"])
        let result = sandbox.ok(["whitelist", "import", "paused_exp", "-"], stdin: Data("user-1,green,now green\nuser-9,green\n".utf8))
        #expect(result.stdout == "imported 2 entries (1 new, 1 replaced) into the whitelist of `paused_exp`\n")
        let entries = try sandbox.ok(["whitelist", "list", "paused_exp", "--json"]).json()
        #expect(entries.elements.map(\.["subject"]) == ["user-1", "user-9"])
        #expect(entries.elements.map(\.["variant"]) == ["green", "green"])
        #expect(entries[0]["note"] == "now green")
        let last = try sandbox.ok(["history", "--json"]).json().elements.last
        #expect(last?["after"] == #"2 entries (1 new, 1 replaced); new: "user-9"; replaced: "user-1""#)
    }

    @Test(arguments: [
        ("user-1,green\nuser-2,control\nuser-3,purple\n", "line 3: experiment `running_exp` has no variant `purple`; its variants are `control`, `green`; nothing was imported"),
        ("user-1,green\nuser-2,control\nuser-3\n", "line 3: expected subject,variant[,note] but found 1 field; nothing was imported"),
        ("user-1,green\nuser-2,control\nuser-1,green\n", "line 3: subject `user-1` is already listed on line 1; nothing was imported"),
        ("user-1,green\nuser-2,control\nus\"er,green\n", "line 3: a quote inside an unquoted field"),
        ("user-1,green\nuser-2,control\n\"user\u{7}3\",green\n", "line 3: subject id `user\\x073` is not valid"),
        ("user-1,green\nuser-2,control\n\"user-3,green\n", "line 3: a quoted field is never closed"),
    ])
    func importWithABadRowOnLine3ImportsNothing(csv: String, message: String) throws {
        let sandbox = try Fixture.sandbox()
        let file = try sandbox.write("bad.csv", csv)
        let result = sandbox.refused(["whitelist", "import", "running_exp", file], code: 65, message)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json() == [])
    }

    @Test func importOfAnEmptyFileIsRefused() throws {
        let sandbox = try Fixture.sandbox()
        let file = try sandbox.write("empty.csv", "subject,variant\n\n")
        sandbox.refused(["whitelist", "import", "running_exp", file], code: 65, "the CSV file has no rows; expected lines of subject,variant[,note]")
    }

    @Test func importOfNonUTF8IsRefusedWithItsLine() throws {
        let sandbox = try Fixture.sandbox()
        let file = sandbox.path("latin1.csv")
        try (Data("user-1,green\nuser-2,control\nuser-3,green,caf".utf8) + Data([0xE9, 0x0A])).write(to: URL(fileURLWithPath: file))
        sandbox.refused(["whitelist", "import", "running_exp", file], code: 65, "line 3: the file is not UTF-8 text; nothing was imported")
    }
}

/// Subject ids with outer whitespace are refused on every input path; CSV spaces around commas are dropped.
@Suite struct SubjectWhitespaceTests {
    @Test func paddedIDsAreRefusedOnEveryPath() throws {
        let sandbox = try Fixture.sandbox()
        let refusal = "subject id ` user-42 ` starts or ends with a space; ids are matched exactly, so remove the spaces"
        sandbox.refused(["whitelist", "add", "running_exp", " user-42 ", "green"], code: 65, refusal)
        sandbox.refused(["whitelist", "add", "running_exp", "user-42 ", "green"], code: 65, "subject id `user-42 ` starts or ends with a space")
        sandbox.refused(["inspect", "--user", " user-42 "], code: 65, refusal)
        sandbox.refused(["assign", "running_exp", "--device", "\u{A0}d-1"], code: 65, "starts or ends with a space")
        sandbox.refused(["assign", "running_exp", "--subjects", "-"], code: 65, "- line 2: subject id `u-2 ` starts or ends with a space",
                        stdin: Data("u-1\nu-2 \n".utf8))
        let file = try sandbox.write("padded.csv", "\" user-42\",green\n")
        sandbox.refused(["whitelist", "import", "running_exp", file], code: 65, "line 1: subject id ` user-42` starts or ends with a space")
        #expect(try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json() == [])
    }

    @Test func csvSpacesAroundCommasAreDropped() throws {
        let sandbox = try Fixture.sandbox()
        let file = try sandbox.write("spaced.csv", "subject , variant , note\nuser-1 , green , first note \n  user-2,control\nuser 3 ,  \"green\" , \" kept \"\n")
        sandbox.ok(["whitelist", "import", "running_exp", file])
        let entries = try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json()
        #expect(entries.elements.map(\.["subject"]) == ["user 3", "user-1", "user-2"])
        #expect(entries.elements.map(\.["variant"]) == ["green", "green", "control"])
        #expect(entries.elements.map(\.["note"]) == [" kept ", "first note", ""])
    }
}

/// A CSV import names every bad line (the first 50, then a count) and imports nothing.
@Suite struct ImportEveryBadLineTests {
    @Test func everyBadLineIsReportedInLineOrder() throws {
        let sandbox = try Fixture.sandbox()
        let csv = "subject,variant\nuser-1,green\nuser-2,purple\nus\"er-3,green\nuser-1,control\nuser-5\n\" user-6\",green\nuser-7,control\n"
        let file = try sandbox.write("bad.csv", csv)
        let result = sandbox.refused(["whitelist", "import", "running_exp", file], code: 65, "5 lines of the CSV file are bad; nothing was imported:")
        #expect(result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
            "abconsole: 5 lines of the CSV file are bad; nothing was imported:",
            "  line 3: experiment `running_exp` has no variant `purple`; its variants are `control`, `green`",
            "  line 4: a quote inside an unquoted field; wrap the field in quotes and double the inner quote",
            "  line 5: subject `user-1` is already listed on line 2",
            "  line 6: expected subject,variant[,note] but found 1 field",
            "  line 7: subject id ` user-6` starts or ends with a space; ids are matched exactly, so remove the spaces",
            "",
        ])
        #expect(try sandbox.ok(["whitelist", "list", "running_exp", "--json"]).json() == [])
    }

    @Test func past50BadLinesOnlyACountFollows() throws {
        let sandbox = try Fixture.sandbox()
        let csv = (1...60).map { "user-\($0),purple\n" }.joined() + "user-61,green\n"
        let file = try sandbox.write("many.csv", csv)
        let result = sandbox.refused(["whitelist", "import", "running_exp", file], code: 65, "60 lines of the CSV file are bad; nothing was imported:")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 52)
        #expect(lines[1].hasPrefix("  line 1: experiment `running_exp` has no variant `purple`"))
        #expect(lines[50].hasPrefix("  line 50: "))
        #expect(lines[51] == "  … and 10 more")
    }
}
