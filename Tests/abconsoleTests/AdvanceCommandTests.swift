import Foundation
import Testing

/// `advance` on the real binary where no plan needs evidence: what it says, its JSON and its refusals
/// (the rollouts themselves: Tests/rollouts/rollout_sim.py).
@Suite struct AdvanceCommandTests {
    @Test func withoutActivePlansItDoesNothingAndSaysSo() throws {
        let sandbox = try Fixture.sandbox()
        let before = sandbox.storeBytes()
        #expect(sandbox.ok(["advance"]).stdout == "no running experiment has an active ramp plan; nothing to do\n")
        #expect(sandbox.ok(["advance", "--json"]).stdout == "{\n  \"decisions\": []\n}\n")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func anExperimentNamedWithoutAPlanGetsNoneAndNoEvidenceIsRead() throws {
        let sandbox = try Fixture.sandbox()
        let result = sandbox.ok(["advance", "running_exp", "draft_exp", "running_exp", "--json", "--exposures", "no-such.jsonl"])
        let decisions = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["decisions"] as? [[String: Any]])
        #expect(decisions.map { $0["experiment"] as? String } == ["running_exp", "draft_exp"])
        #expect(decisions.allSatisfy { $0["action"] as? String == "none" && $0["step"] as? Int == 0 && $0["steps"] as? Int == 0 })
        #expect(decisions.first?["reason"] as? String == "`running_exp` has no ramp plan")
        #expect(decisions.first?["weights"] as? [String: Double] == ["control": 50, "green": 50])
    }

    @Test func refusals() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["advance", "no_such_exp"], code: 65, "no experiment `no_such_exp`")
        sandbox.refused(["advance", "running_exp", "draft_exp", "--summary", "totals.csv"], code: 64, "a --summary holds one experiment's totals")
        sandbox.refused(["advance", "--summary", "totals.csv"], code: 64, "a --summary holds one experiment's totals")
    }
}
