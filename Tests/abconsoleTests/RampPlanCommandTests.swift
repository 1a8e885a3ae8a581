import Foundation
import Testing

/// `ramp-plan` (SPEC §14) through the real process on a temp store.
@Suite struct RampPlanCommandTests {
    @Test func aPlanOnARunningExperimentRampsToItsFirstStepAtOnce() throws {
        let sandbox = try Fixture.sandbox()
        #expect(sandbox.ok(["ramp-plan", "running_exp", "green=10", "green=50", "control=0,green=100", "--hold", "2d", "--min-subjects", "2000",
                            "--on-srm", "rollback"]).stdout
            == "set a ramp plan of 3 steps on `running_exp`; step 1 applied: it now serves control=90,green=10, 40 % of subjects switched variant\n")
        let shown = try sandbox.ok(["show", "running_exp", "--json"]).json()
        #expect(shown["plan"] == [
            "steps": [["weights": ["control": 90, "green": 10]], ["weights": ["control": 50, "green": 50]], ["weights": ["control": 0, "green": 100]]],
            "hold_seconds": 172800, "min_subjects": 2000, "on_guardrail": "rollback", "on_srm": "rollback", "step": 1, "state": "active",
            "last_decision": nil,
        ])
        let history = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.suffix(2)
        #expect(history.map { $0["action"] } == ["plan_set", "ramp"])
        #expect(history.last?["after"] == "control=90,green=10")
        let text = sandbox.ok(["show", "running_exp"]).stdout
        #expect(text.contains("ramp plan:   active, step 1 of 3; hold 2d, at least 2000 subjects a step, guardrail → rollback, sample-ratio mismatch → rollback\n"
            + "  ▸ step 1: control=90,green=10\n    step 2: control=50,green=50\n    step 3: control=0,green=100\n"))
    }

    @Test func aPlanOnADraftAppliesAtStartAndShowsNullWithoutOne() throws {
        let sandbox = try Fixture.sandbox()
        #expect(try sandbox.ok(["show", "draft_exp", "--json"]).json()["plan"] == nil)
        sandbox.ok(["ramp-plan", "draft_exp", "green=5", "green=20"])
        #expect(try sandbox.ok(["show", "draft_exp", "--json"]).json()["plan"]["step"] == 0)
        sandbox.ok(["start", "draft_exp"])
        let shown = try sandbox.ok(["show", "draft_exp", "--json"]).json()
        #expect(shown["plan"]["step"] == 1)
        #expect(shown["variants"][1]["weight"] == 5)
    }

    @Test func pauseResumeAndClear() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["ramp-plan", "running_exp", "green=10", "green=50"])
        sandbox.ok(["ramp-plan", "running_exp", "--pause"])
        #expect(try sandbox.ok(["show", "running_exp", "--json"]).json()["plan"]["state"] == "paused")
        sandbox.ok(["ramp-plan", "running_exp", "--resume"])
        sandbox.ok(["ramp-plan", "running_exp", "--clear"])
        let shown = try sandbox.ok(["show", "running_exp", "--json"]).json()
        #expect(shown["plan"] == nil)
        #expect(shown["variants"][1]["weight"] == 10)
        let actions = try sandbox.ok(["history", "running_exp", "--json"]).json().elements.suffix(3).map { $0["action"] }
        #expect(actions == ["plan_pause", "plan_resume", "plan_clear"])
        sandbox.refused(["ramp-plan", "running_exp", "--pause"], code: 65, "has no ramp plan")
    }

    @Test func badPlansAreRefusedWithNothingWritten() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["ramp-plan", "resolved_exp", "green=10"], code: 65, "is resolved; its ramp plan can no longer change")
        sandbox.refused(["ramp-plan", "running_exp", "green=10", "green=10"], code: 65, "step 2 is equal to the step before it")
        sandbox.refused(["ramp-plan", "running_exp", "control=90,green=20"], code: 65, "step 1 adds up to 110 %")
        sandbox.refused(["ramp-plan", "running_exp", "blue=10"], code: 65, "step 1 names `blue`, which is not one of the variants")
        sandbox.refused(["ramp-plan", "running_exp"], code: 64, "give the plan's steps")
        sandbox.refused(["ramp-plan", "nope", "green=10"], code: 65, "no experiment `nope`")
        for hold in ["0h", "-1h", "soon", "1.5h"] {
            sandbox.refused(["ramp-plan", "running_exp", "green=10", "--hold", hold], code: 64, "is not a positive duration such as 30m, 24h or 2d")
        }
        sandbox.refused(["ramp-plan", "running_exp", "green=10", "--min-subjects", "-5"], code: 64, "is not a whole number of subjects")
        sandbox.refused(["ramp-plan", "running_exp", "green=10", "--clear"], code: 64, "--clear takes the experiment alone")
    }

    @Test func everyVariantIsNamedBeyondTwo() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "e", "--type", "user", "--variants", "a=50,b=50,c=0"])
        sandbox.refused(["ramp-plan", "e", "c=10"], code: 65, "step 1 gives no weight for `a`")
        sandbox.ok(["ramp-plan", "e", "a=45,b=45,c=10"])
    }
}
