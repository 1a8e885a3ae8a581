import Foundation
import Testing

/// `history`, `inspect`, `assign` (single and batch).
@Suite struct HistoryAndAssignmentTests {
    /// `account_add_funds` (user, control=50,treatment=50) and `app_color_scheme` (device, classic=50,dark=50).
    ///
    /// SPEC §2 vectors: `user-1` → bucket 6471 (treatment), `user-42` → 1165 (control),
    /// `device-7f3a` → 2440 (classic).
    static func vectorSandbox(start: Bool = true) throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "account_add_funds", "--type", "user", "--variants", "control=50,treatment=50"])
        sandbox.ok(["create", "app_color_scheme", "--type", "device", "--variants", "classic=50,dark=50"])
        if start {
            sandbox.ok(["start", "account_add_funds"])
            sandbox.ok(["start", "app_color_scheme"])
        }
        return sandbox
    }

    @Test func historyJSONIsOldestFirstWithEveryField() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "a", "--type", "user", "--variants", "control=50,green=50"])
        sandbox.ok(["start", "a"], env: ["ABCONSOLE_NOW": "2026-03-02T08:30:00Z"])
        sandbox.ok(["ramp", "a", "green=60", "control=40"], env: ["ABCONSOLE_OPERATOR": "maria.pm"])
        sandbox.ok(["create", "b", "--type", "device", "--variants", "x=10"])
        let history = try sandbox.ok(["history", "--json"]).json()
        // Time order: the changes recorded at 10:00 after the one at 08:30 the next day go before it (SPEC §11 rule 4).
        #expect(history == [
            ["at": "2026-03-01T10:00:00Z", "operator": "tester", "experiment": "a", "action": "create", "before": nil, "after": "draft control=50,green=50"],
            ["at": "2026-03-01T10:00:00Z", "operator": "maria.pm", "experiment": "a", "action": "ramp", "before": "control=50,green=50", "after": "control=40,green=60"],
            ["at": "2026-03-01T10:00:00Z", "operator": "tester", "experiment": "b", "action": "create", "before": nil, "after": "draft x=10"],
            ["at": "2026-03-02T08:30:00Z", "operator": "tester", "experiment": "a", "action": "start", "before": "draft", "after": "running"],
        ])
        #expect(try sandbox.ok(["history", "b", "--json"]).json() == [history[2]])
        #expect(sandbox.ok(["history", "a"]).lines == [
            "AT                       OPERATOR  EXPERIMENT  ACTION  CHANGE",
            "2026-03-01 10:00:00 UTC  tester    a           create  ∅ → draft control=50,green=50",
            "2026-03-01 10:00:00 UTC  maria.pm  a           ramp    control=50,green=50 → control=40,green=60",
            "2026-03-02 08:30:00 UTC  tester    a           start   draft → running",
        ])
    }

    @Test func historyOfAnUnknownExperimentIsRefused() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["history", "nope"], code: 65, "no experiment `nope` in the store")
    }

    @Test func inspectJSONExplainsEveryReason() throws {
        let sandbox = try Self.vectorSandbox()
        var rows = try sandbox.ok(["inspect", "--user", "user-1", "--device", "device-7f3a", "--json"]).json()
        #expect(rows == [
            ["experiment": "account_add_funds", "type": "user", "subject": "user-1", "bucket": 6471, "variant": "treatment", "reason": "bucketed"],
            ["experiment": "app_color_scheme", "type": "device", "subject": "device-7f3a", "bucket": 2440, "variant": "classic", "reason": "bucketed"],
        ])
        rows = try sandbox.ok(["inspect", "app_color_scheme", "account_add_funds", "--user", "user-42", "--json"]).json()
        #expect(rows == [
            ["experiment": "app_color_scheme", "type": "device", "subject": nil, "bucket": nil, "variant": "classic", "reason": "no_subject"],
            ["experiment": "account_add_funds", "type": "user", "subject": "user-42", "bucket": 1165, "variant": "control", "reason": "bucketed"],
        ])
        sandbox.ok(["whitelist", "add", "account_add_funds", "user-42", "treatment"])
        #expect(try sandbox.ok(["inspect", "account_add_funds", "--user", "user-42", "--json"]).json()[0]["reason"] == "whitelisted")
        sandbox.ok(["ramp", "account_add_funds", "control=10", "treatment=10"])
        rows = try sandbox.ok(["inspect", "account_add_funds", "--user", "user-1", "--json"]).json()
        #expect(rows == [["experiment": "account_add_funds", "type": "user", "subject": "user-1", "bucket": 6471, "variant": "control", "reason": "not_enrolled"]])
        sandbox.ok(["pause", "account_add_funds"])
        #expect(try sandbox.ok(["inspect", "account_add_funds", "--user", "user-42", "--json"]).json()[0]["reason"] == "paused")
        sandbox.ok(["resolve", "account_add_funds", "treatment", "--yes"])
        rows = try sandbox.ok(["inspect", "account_add_funds", "--json"]).json()
        #expect(rows == [["experiment": "account_add_funds", "type": "user", "subject": nil, "bucket": nil, "variant": "treatment", "reason": "resolved"]])
    }

    @Test func inspectOfADraftServesTheControl() throws {
        let sandbox = try Self.vectorSandbox(start: false)
        let rows = try sandbox.ok(["inspect", "account_add_funds", "--user", "user-1", "--json"]).json()
        #expect(rows == [["experiment": "account_add_funds", "type": "user", "subject": "user-1", "bucket": 6471, "variant": "control", "reason": "draft"]])
        #expect(sandbox.ok(["inspect", "account_add_funds", "--user", "user-1"]).lines == [
            "EXPERIMENT         TYPE  SUBJECT  BUCKET  VARIANT  REASON",
            "account_add_funds  user  user-1   6471    control  draft",
        ])
    }

    @Test func inspectOfAnUnknownExperimentIsRefused() throws {
        let sandbox = try Self.vectorSandbox()
        sandbox.refused(["inspect", "account_add_funds", "nope", "--user", "user-1"], code: 65, "no experiment `nope` in the store")
    }

    @Test func assignJSONIsTheClientAnswer() throws {
        let sandbox = try Self.vectorSandbox()
        let result = sandbox.ok(["assign", "account_add_funds", "nope", "app_color_scheme", "nope", "--user", "user-1", "--device", "device-7f3a", "--json"])
        #expect(result.stdout == #"{"unknown":["nope"],"variants":{"account_add_funds":"treatment","app_color_scheme":"classic"}}"# + "\n")
        #expect(try result.json() == ["variants": ["account_add_funds": "treatment", "app_color_scheme": "classic"], "unknown": ["nope"]])
        let plain = sandbox.ok(["assign", "app_color_scheme", "account_add_funds", "nope", "--user", "user-42"])
        #expect(plain.lines == ["app_color_scheme\tclassic", "account_add_funds\tcontrol", "unknown: nope"])
    }

    @Test func assignOfOnlyUnknownKeys() throws {
        let sandbox = try Self.vectorSandbox()
        #expect(try sandbox.ok(["assign", "nope", "--user", "u", "--json"]).json() == ["variants": [:], "unknown": ["nope"]])
    }

    @Test func assignBatchFromAFile() throws {
        let sandbox = try Self.vectorSandbox()
        let file = try sandbox.write("subjects.txt", "user-1\r\nuser-42\n\ndevice-7f3a\n")
        let result = sandbox.ok(["assign", "app_color_scheme", "account_add_funds", "nope", "--subjects", file, "--json"])
        #expect(result.lines == [
            #"{"subject":"user-1","unknown":["nope"],"variants":{"account_add_funds":"treatment","app_color_scheme":"dark"}}"#,
            #"{"subject":"user-42","unknown":["nope"],"variants":{"account_add_funds":"control","app_color_scheme":"dark"}}"#,
            #"{"subject":null,"unknown":["nope"],"variants":{"account_add_funds":"control","app_color_scheme":"classic"}}"#,  // a blank line: a missing subject
            #"{"subject":"device-7f3a","unknown":["nope"],"variants":{"account_add_funds":"control","app_color_scheme":"classic"}}"#,
        ])
        for line in result.lines {
            let object = try JSONDecoder().decode(JSONTree.self, from: Data(line.utf8))
            #expect(object.keys == ["subject", "unknown", "variants"])
        }
        // Every batch answer equals the single answer for that subject as user and device id.
        for line in result.lines {
            let object = try JSONDecoder().decode(JSONTree.self, from: Data(line.utf8))
            guard let subject = object["subject"].stringValue else { continue }
            let single = try sandbox.ok(["assign", "app_color_scheme", "account_add_funds", "nope", "--user", subject, "--device", subject, "--json"]).json()
            #expect(single["variants"] == object["variants"])
        }
    }

    @Test func assignBatchFromStandardInput() throws {
        let sandbox = try Self.vectorSandbox()
        let input = Data("user-1\nuser-42\n\"quoted\" \\ id\n".utf8)
        let result = sandbox.ok(["assign", "account_add_funds", "--subjects", "-", "--json"], stdin: input)
        let objects = try result.lines.map { try JSONDecoder().decode(JSONTree.self, from: Data($0.utf8)) }
        #expect(objects == [
            ["subject": "user-1", "unknown": [], "variants": ["account_add_funds": "treatment"]],
            ["subject": "user-42", "unknown": [], "variants": ["account_add_funds": "control"]],
            ["subject": "\"quoted\" \\ id", "unknown": [], "variants": ["account_add_funds": "control"]],
        ])
        let plain = sandbox.ok(["assign", "account_add_funds", "--subjects", "-"], stdin: Data("user-1\nuser-42\n".utf8))
        #expect(plain.lines == ["SUBJECT\taccount_add_funds", "user-1\ttreatment", "user-42\tcontrol"])
    }

    @Test func assignBatchRefusesABadSubjectLine() throws {
        let sandbox = try Self.vectorSandbox()
        let result = sandbox.refused(["assign", "account_add_funds", "--subjects", "-", "--json"], code: 65,
                                     "line 2: subject id `bad\\e[2Jid` is not valid", stdin: Data("user-1\nbad\u{1b}[2Jid\n".utf8))
        #expect(!result.stderr.contains("\u{1b}"))
    }

    @Test func assignBatchOfAMissingFile() throws {
        let sandbox = try Self.vectorSandbox()
        sandbox.refused(["assign", "account_add_funds", "--subjects", sandbox.path("nope.txt")], code: 66,
                        "cannot open \(sandbox.path("nope.txt")): it does not exist")
    }
}

/// `history --limit N --since T --operator NAME`.
@Suite struct HistoryFilterTests {
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "a", "--type", "user", "--variants", "control=50,green=50"], env: ["ABCONSOLE_NOW": "2026-03-01T08:00:00Z"])
        sandbox.ok(["start", "a"], env: ["ABCONSOLE_NOW": "2026-03-02T09:00:00Z", "ABCONSOLE_OPERATOR": "maria.pm"])
        sandbox.ok(["ramp", "a", "green=60", "control=40"], env: ["ABCONSOLE_NOW": "2026-03-03T10:00:00Z", "ABCONSOLE_OPERATOR": "maria.pm"])
        sandbox.ok(["pause", "a"], env: ["ABCONSOLE_NOW": "2026-03-04T11:00:00Z"])
        return sandbox
    }

    @Test func filtersCombineAndKeepTheOldestFirstOrder() throws {
        let sandbox = try Self.sandbox()
        func actions(_ arguments: [String], env: [String: String] = [:]) throws -> [JSONTree] {
            try sandbox.ok(["history", "--json"] + arguments, env: env).json().elements.map(\.["action"])
        }
        #expect(try actions(["--limit", "2"]) == ["ramp", "pause"])
        #expect(try actions(["--limit", "0"]) == [])
        #expect(try actions(["--limit", "9"]) == ["create", "start", "ramp", "pause"])
        #expect(try actions(["--operator", "maria.pm"]) == ["start", "ramp"])
        #expect(try actions(["--since", "2026-03-03"]) == ["ramp", "pause"])
        #expect(try actions(["--since", "2026-03-02T09:00:00Z"]) == ["start", "ramp", "pause"])
        #expect(try actions(["--since", "36h"], env: ["ABCONSOLE_NOW": "2026-03-04T12:00:00Z"]) == ["ramp", "pause"])
        #expect(try actions(["--since", "2d", "--operator", "maria.pm", "--limit", "1"], env: ["ABCONSOLE_NOW": "2026-03-04T12:00:00Z"]) == ["ramp"])
        #expect(try actions(["a", "--operator", "tester"]) == ["create", "pause"])
        #expect(sandbox.ok(["history", "--operator", "nobody"]).lines == ["AT  OPERATOR  EXPERIMENT  ACTION  CHANGE"])
        // Before the command, --operator keeps its global meaning (who operates) and filters nothing.
        #expect(try sandbox.ok(["--operator", "maria.pm", "history", "--json"]).json().elements.count == 4)
        #expect(try sandbox.ok(["--operator", "someone", "history", "--operator", "tester", "--json"]).json().elements.map(\.["action"]) == ["create", "pause"])
    }

    @Test func badFilterValuesAreUsageErrors() throws {
        let sandbox = try Self.sandbox()
        sandbox.refused(["history", "--limit", "-1"], code: 64, "--limit must be a whole number of entries, not `-1`")
        sandbox.refused(["history", "--limit", "ten"], code: 64, "--limit must be a whole number of entries")
        sandbox.refused(["history", "--since", "yesterday"], code: 64, "--since must be a time such as 2026-03-01, 2026-03-01T09:30:00Z, or an age such as 30m, 12h, 7d; not `yesterday`")
        sandbox.refused(["history", "--limit", "1", "--limit", "2"], code: 64, "--limit is given twice")
    }
}
