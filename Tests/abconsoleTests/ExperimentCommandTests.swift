import Foundation
import Testing

/// `create`, `show`, `list`, lifecycle changes, `add-variant`, `set-payload`, `delete`, `validate`.
@Suite struct ExperimentCommandTests {
    /// `show --json` of a fresh draft of `checkout_button` with control=50,green=50.
    static func draftJSON(revision: Int = 1, status: String = "draft", winner: JSONTree = nil,
                          variants: JSONTree? = nil, whitelist: JSONTree = []) -> JSONTree {
        [
            "key": "checkout_button", "type": "user", "status": .string(status), "salt": "checkout_button",
            "control": "control", "winner": winner, "description": "Big green button", "revision": .number(Double(revision)),
            "created_at": "2026-03-01T10:00:00Z", "updated_at": "2026-03-01T10:00:00Z", "updated_by": "tester",
            "variants": variants ?? [
                ["name": "control", "weight": 50, "ranges": [[0, 5000]], "payload": nil],
                ["name": "green", "weight": 50, "ranges": [[5000, 10000]], "payload": nil],
            ],
            "whitelist": whitelist,
            "metrics": ["goal": nil, "guardrails": []],
            "plan": nil,
        ]
    }

    @Test func createThenShowJSONHasEveryFieldOfTheSpec() throws {
        let sandbox = try Sandbox()
        let created = sandbox.ok(["create", "checkout_button", "--type", "user", "--variants", "control=50,green=50",
                                  "--description", "Big green button"])
        #expect(created.stdout == "created draft `checkout_button` (control=50,green=50)\n")
        let shown = try sandbox.ok(["show", "checkout_button", "--json"]).json()
        #expect(shown == Self.draftJSON())
        // The field names SPEC §7 fixes (more fields may be added).
        #expect(shown.keys.isSuperset(of: ["key", "type", "status", "salt", "control", "winner", "description", "revision", "variants", "whitelist"]))
        #expect(shown["variants"][0].keys.isSuperset(of: ["name", "weight", "ranges", "payload"]))
    }

    @Test func createLaysVariantsOutFromBucketZeroWithControlSaltAndDecimals() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "paywall", "--type", "device", "--variants", "a=20,b=30.25,c=12.5", "--control", "b",
                    "--salt", "()**(%$##$%#$#"])
        let shown = try sandbox.ok(["show", "paywall", "--json"]).json()
        #expect(shown["type"] == "device")
        #expect(shown["control"] == "b")
        #expect(shown["salt"] == "()**(%$##$%#$#")
        #expect(shown["description"] == "")
        #expect(shown["variants"] == [
            ["name": "a", "weight": 20, "ranges": [[0, 2000]], "payload": nil],
            ["name": "b", "weight": 30.25, "ranges": [[2000, 5025]], "payload": nil],
            ["name": "c", "weight": 12.5, "ranges": [[5025, 6275]], "payload": nil],
        ])
    }

    @Test func showPlainText() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "checkout_button", "--type", "user", "--variants", "control=50,green=40", "--description", "Big green button"])
        #expect(sandbox.ok(["show", "checkout_button"]).lines == [
            "checkout_button  (user-level, draft, revision 1)",
            "description: Big green button",
            "salt:        checkout_button",
            "control:     control",
            "updated:     2026-03-01 10:00:00 UTC by tester",
            "",
            "VARIANT  WEIGHT  BUCKETS      WHITELISTED  PAYLOAD",
            "control  50 %    [0,5000)     0            -",
            "green    40 %    [5000,9000)  0            -",
            "(unallocated: 10 %, served the control)",
        ])
    }

    @Test func lifecycleStartPauseResumeResolve() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "checkout_button", "--type", "user", "--variants", "control=50,green=50", "--description", "Big green button"])
        #expect(sandbox.ok(["start", "checkout_button"]).stdout == "started `checkout_button`; it now serves control=50,green=50\n")
        #expect(sandbox.ok(["pause", "checkout_button"]).stdout == "paused `checkout_button`; everyone now gets `control` (kill switch)\n")
        #expect(try sandbox.ok(["show", "checkout_button", "--json"]).json()["status"] == "paused")
        #expect(sandbox.ok(["start", "checkout_button"]).stdout == "resumed `checkout_button`; it now serves control=50,green=50\n")
        #expect(sandbox.ok(["resolve", "checkout_button", "green", "--yes"]).stdout == "resolved `checkout_button`: everyone now gets `green`, forever\n")
        #expect(try sandbox.ok(["show", "checkout_button", "--json"]).json() == Self.draftJSON(revision: 5, status: "resolved", winner: "green"))
        let actions = try sandbox.ok(["history", "checkout_button", "--json"]).json().elements.map(\.["action"])
        #expect(actions == ["create", "start", "pause", "start", "resolve"])
    }

    @Test func startOfARunningAndPauseOfAPausedExperimentSucceedWithoutWriting() throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        let history = try sandbox.ok(["history", "--json"]).json().elements.count
        #expect(sandbox.ok(["start", "running_exp"]).stdout == "`running_exp` is already running\n")
        #expect(sandbox.ok(["pause", "paused_exp"]).stdout == "`paused_exp` is already paused\n")
        #expect(sandbox.storeBytes() == before, "a start or pause that changes nothing writes nothing")
        #expect(try sandbox.ok(["history", "--json"]).json().elements.count == history)
        // A real transition still refuses, and resuming a paused one still writes.
        #expect(sandbox.run(["pause", "draft_exp"]).code == 65)
        #expect(sandbox.ok(["start", "paused_exp"]).stdout == "resumed `paused_exp`; it now serves control=50,green=50\n")
    }

    @Test func aChangeThatChangesNothingLeavesAStoreInAnotherLayoutAsItIs() throws {
        let sandbox = try Fixture.sandbox()
        // A hand-formatted store (valid, not in the writer's layout): a no-op must not reformat it,
        // or `--commit-changes` leaves an uncommitted rewrite that stops the next `git pull`.
        let parsed = try JSONSerialization.jsonObject(with: try #require(sandbox.storeBytes()))
        let handFormatted = try JSONSerialization.data(withJSONObject: parsed, options: [.prettyPrinted])
        try handFormatted.write(to: URL(fileURLWithPath: sandbox.store))
        #expect(sandbox.ok(["start", "running_exp"]).stdout == "`running_exp` is already running\n")
        #expect(sandbox.ok(["pause", "paused_exp"]).stdout == "`paused_exp` is already paused\n")
        #expect(sandbox.storeBytes() == handFormatted, "a change that changes nothing writes nothing, whatever the layout")
        // A real change still writes, in the writer's layout.
        sandbox.ok(["start", "paused_exp"])
        #expect(sandbox.storeBytes() != handFormatted)
    }

    @Test func listJSONAndStatusFilter() throws {
        let sandbox = try Fixture.sandbox()
        let all = try sandbox.ok(["list", "--json"]).json()
        #expect(all.elements.map(\.["key"]) == ["draft_exp", "paused_exp", "resolved_exp", "running_exp"])
        #expect(all.elements.map(\.["status"]) == ["draft", "paused", "resolved", "running"])
        #expect(all[2] == [
            "key": "resolved_exp", "type": "user", "status": "resolved", "control": "control", "winner": "green",
            "description": "", "revision": 3, "variants": [["name": "control", "weight": 50], ["name": "green", "weight": 50]], "whitelist_count": 0,
            "updated_at": "2026-03-01T10:00:00Z", "updated_by": "tester",
        ])
        let running = try sandbox.ok(["list", "--status", "running", "--json"]).json()
        #expect(running.elements.map(\.["key"]) == ["running_exp"])
        #expect(try sandbox.ok(["list", "--status", "draft", "--json"]).json().elements.map(\.["key"]) == ["draft_exp"])
    }

    @Test func listPlainText() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["list"]).lines == [
            "KEY           TYPE  STATUS    WEIGHTS              WHITELIST  UPDATED                  BY",
            "draft_exp     user  draft     control=50,green=50  0          2026-03-01 10:00:00 UTC  tester",
            "paused_exp    user  paused    control=50,green=50  0          2026-03-01 10:00:00 UTC  tester",
            "resolved_exp  user  resolved  winner=green         0          2026-03-01 10:00:00 UTC  tester",
            "running_exp   user  running   control=50,green=50  0          2026-03-01 10:00:00 UTC  tester",
        ])
    }

    @Test func listOfAnEmptyStoreIsAnEmptyArray() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["delete", "draft_exp"])
        #expect(try sandbox.ok(["list", "--status", "draft", "--json"]).json() == [])
    }

    @Test func addVariantAndSetPayload() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["add-variant", "running_exp", "blue", "--payload", ##"{"color":"#0a84ff"}"##]).stdout
            == "added variant `blue` to `running_exp` at 0 %; ramp it up with `abconsole ramp running_exp blue=PCT`\n")
        #expect(sandbox.ok(["set-payload", "running_exp", "green", "[1,2.5,\"x\"]"]).stdout == "set the payload of `green`\n")
        var variants = try sandbox.ok(["show", "running_exp", "--json"]).json()["variants"]
        #expect(variants == [
            ["name": "control", "weight": 50, "ranges": [[0, 5000]], "payload": nil],
            ["name": "green", "weight": 50, "ranges": [[5000, 10000]], "payload": [1, 2.5, "x"]],
            ["name": "blue", "weight": 0, "ranges": [], "payload": ["color": "#0a84ff"]],
        ])
        #expect(sandbox.ok(["set-payload", "running_exp", "blue", "--clear"]).stdout == "cleared the payload of `blue`\n")
        variants = try sandbox.ok(["show", "running_exp", "--json"]).json()["variants"]
        #expect(variants[2]["payload"] == nil)
        let history = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.suffix(3)
        #expect(history.map(\.["action"]) == ["add_variant", "set_payload", "set_payload"])
        #expect(history.map(\.["after"]) == ["blue=0", #"green [1,2.5,"x"]"#, nil])
        #expect(history.map(\.["before"]) == [nil, nil, ##"blue {"color":"#0a84ff"}"##])
    }

    @Test func deleteADraftKeepsItsHistory() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["delete", "draft_exp"]).stdout == "deleted draft `draft_exp`\n")
        sandbox.refused(["show", "draft_exp"], code: 65, "no experiment `draft_exp` in the store")
        let history = try sandbox.ok(["history", "draft_exp", "--json"]).json()
        #expect(history.elements.map(\.["action"]) == ["create", "delete"])
        #expect(history[1]["before"] == "draft control=50,green=50")
        #expect(history[1]["after"] == nil)
    }

    @Test func validateSummarisesAValidStore() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["validate"]).stdout == "\(sandbox.store) is valid: 4 experiments, 0 whitelist entries, 9 history entries\n")
    }

    @Test func operatorOptionAndEnvironment() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["--operator", "maria.pm", "create", "a", "--type", "user", "--variants", "x=100"])
        sandbox.ok(["start", "a"], env: ["ABCONSOLE_OPERATOR": "jonas"])
        sandbox.ok(["pause", "a", "--operator=lee"], env: ["ABCONSOLE_OPERATOR": "jonas"])
        let history = try sandbox.ok(["history", "--json"]).json()
        #expect(history.elements.map(\.["operator"]) == ["maria.pm", "jonas", "lee"])
    }

    @Test func storeFromEnvironmentAndTheDefaultPath() throws {
        let sandbox = try Sandbox()
        let elsewhere = sandbox.path("elsewhere.json")
        let viaEnvironment = CLI.run(["create", "a", "--type", "user", "--variants", "x=100"], env: ["ABCONSOLE_STORE": elsewhere], directory: sandbox.directory)
        #expect(viaEnvironment.code == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere))
        let viaDefault = CLI.run(["create", "b", "--type", "user", "--variants", "x=100"], directory: sandbox.directory)
        #expect(viaDefault.code == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.path("experiments.json")))
        let list = CLI.run(["list", "--json"], directory: sandbox.directory)
        #expect(try list.json().elements.map(\.["key"]) == ["b"])
    }

    @Test func aNewStoreIsCreatedWith0644AndEndsWithANewline() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "a", "--type", "user", "--variants", "x=100"])
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.store)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644)
        let bytes = try #require(sandbox.storeBytes())
        #expect(bytes.last == 0x0A)
        let document = try JSONDecoder().decode(JSONTree.self, from: bytes)
        #expect(document["schema_version"] == 1)
        #expect(document["revision"] == 1)
    }
}
