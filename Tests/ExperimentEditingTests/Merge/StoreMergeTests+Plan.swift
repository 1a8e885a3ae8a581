import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// The ramp plan is one merge unit per experiment (SPEC §11, §14).
extension StoreMergeTests {
    static func plan(_ steps: [[String: String]], hold: Int = 86_400) -> RolloutPlan {
        RolloutPlan(steps: steps.map { $0.mapValues { Fixture.w($0) } }, holdSeconds: hold)
    }

    @Test func twoBranchesSettingDifferentPlansConflictOnThePlan() throws {
        let tenThenFifty = Self.plan([["control": "90", "treatment": "10"], ["control": "50", "treatment": "50"]])
        let fiveThenTwenty = Self.plan([["control": "95", "treatment": "5"], ["control": "80", "treatment": "20"]], hold: 3_600)
        let (base, ours, theirs) = try sides([.setPlan(experiment: Self.key, plan: tenThenFifty)],
                                             [.setPlan(experiment: Self.key, plan: fiveThenTwenty)])
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        // The first steps applied on both sides differ too: the allocation conflicts beside the plan.
        #expect(result.conflicts.map(\.unit) == [.allocation, .plan])
        let conflict = try #require(result.conflicts.last)
        #expect(conflict.title == "the ramp plan of `checkout`")
        #expect(conflict.base == "no ramp plan")
        #expect(conflict.ours == "step 1/2 active: steps control=90,treatment=10 → control=50,treatment=50; hold 24h; min 1000 subjects; "
            + "guardrail rollback; srm hold")
        #expect(conflict.theirs == "step 1/2 active: steps control=95,treatment=5 → control=80,treatment=20; hold 1h; min 1000 subjects; "
            + "guardrail rollback; srm hold")
        let theirsPlan = try #require(theirs.experiments[Self.key]?.plan)
        #expect(conflict.changes == [.setPlan(experiment: Self.key, plan: theirsPlan)])
        #expect(conflict.order == ["control", "treatment"])
        #expect(result.snapshot.experiments[Self.key]?.plan == ours.experiments[Self.key]?.plan)
        let settled = StoreMerge.merge(base: base, ours: ours, theirs: theirs, takingTheirs: Set(result.conflicts.map(\.id)), by: Self.merger)
        #expect(settled.snapshot.experiments[Self.key]?.plan == theirs.experiments[Self.key]?.plan)
        #expect(settled.snapshot.experiments[Self.key]?.variants == theirs.experiments[Self.key]?.variants)
        #expect(StoreDiff.changes(old: base, new: ours).map(\.action) == ["plan_set", "ramp"])
        #expect(StoreDiff.words(ours).contains("  \(Self.key) plan: " + (conflict.ours ?? "")))
    }

    @Test func oneBranchAdvancingWhileTheOtherWhitelistsMergesCleanly() throws {
        let plan = Self.plan([["control": "90", "treatment": "10"], ["control": "50", "treatment": "50"]])
        var base = try Fixture.snapshot(Self.key, status: .running)
        try base.apply(.setPlan(experiment: Self.key, plan: plan), context: Fixture.alice)
        var (ours, theirs) = (base, base)
        try ours.apply(.edit(experiment: Self.key, .advancePlan(reason: "held 24h, 2400 subjects, guardrails pass")), context: Fixture.bob)
        try theirs.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa"), context: Fixture.carol)
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(result.conflicts.isEmpty)
        let merged = try #require(result.snapshot.experiments[Self.key])
        #expect(merged.plan == ours.experiments[Self.key]?.plan)
        #expect(merged.plan?.state == .done)
        #expect(merged.namedWeights.map(\.weight) == [Fixture.w("50"), Fixture.w("50")])
        #expect(merged.whitelist == theirs.experiments[Self.key]?.whitelist)
        // And the other way round: THEIRS advanced, OURS whitelisted.
        let reversed = StoreMerge.merge(base: base, ours: theirs, theirs: ours, by: Self.merger)
        #expect(reversed.conflicts.isEmpty)
        #expect(reversed.snapshot.experiments[Self.key]?.plan == ours.experiments[Self.key]?.plan)
        // One side clears the plan, the other leaves it: clean, the plan is cleared.
        var cleared = base
        try cleared.apply(.edit(experiment: Self.key, .clearPlan), context: Fixture.bob)
        let clearing = StoreMerge.merge(base: base, ours: theirs, theirs: cleared, by: Self.merger)
        #expect(clearing.conflicts.isEmpty)
        #expect(clearing.snapshot.experiments[Self.key]?.plan == nil)
    }
}
