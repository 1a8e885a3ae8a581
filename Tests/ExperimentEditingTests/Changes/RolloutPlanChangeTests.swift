import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// The ramp plan's changes (SPEC §14) on real snapshots: each step a minimal-move ramp with its own `ramp` entry.
struct RolloutPlanChangeTests {
    static let key = "checkout"
    static let plan = RolloutPlan(steps: [["control": Fixture.w("90"), "treatment": Fixture.w("10")],
                                          ["control": Fixture.w("50"), "treatment": Fixture.w("50")],
                                          ["control": Fixture.w("0"), "treatment": Fixture.w("100")]])

    static func experiment(_ snapshot: StoreSnapshot) throws -> Experiment { try #require(snapshot.experiments[key]) }

    @Test func onARunningExperimentTheFirstStepAppliesAtOnce() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running)
        let outcome = try snapshot.apply(.setPlan(experiment: Self.key, plan: Self.plan), context: Fixture.bob)
        let experiment = try Self.experiment(snapshot)
        #expect(experiment.weightSummary == "control=90,treatment=10")
        #expect(experiment.plan?.step == 1)
        #expect(experiment.plan?.state == .active)
        #expect(experiment.plan?.startedFrom == ["control": Fixture.w("50"), "treatment": Fixture.w("50")])
        #expect(outcome.ramp?.movedShare == 0.4)
        #expect(snapshot.history.suffix(2).map(\.action) == [.planSet, .ramp])
        #expect(snapshot.history.last?.changeText == "control=50,treatment=50 → control=90,treatment=10")
    }

    @Test func onADraftTheFirstStepAppliesAtStart() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .draft)
        try snapshot.apply(.setPlan(experiment: Self.key, plan: Self.plan), context: Fixture.bob)
        #expect(try Self.experiment(snapshot).weightSummary == "control=50,treatment=50")
        #expect(try Self.experiment(snapshot).plan?.step == 0)
        try snapshot.apply(.start(experiment: Self.key), context: Fixture.carol)
        let experiment = try Self.experiment(snapshot)
        #expect(experiment.status == .running)
        #expect(experiment.weightSummary == "control=90,treatment=10")
        #expect(experiment.plan?.step == 1)
        #expect(snapshot.history.suffix(2).map(\.action) == [.start, .ramp])
    }

    @Test func advancingMovesOneStepAndTheLastIsDone() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running)
        try snapshot.apply(.setPlan(experiment: Self.key, plan: Self.plan), context: Fixture.alice)
        let later = ChangeContext(operatorName: "ci", now: Fixture.t2)
        let outcome = try snapshot.apply(.edit(experiment: Self.key, .advancePlan(reason: "2400 subjects, guardrails pass")), context: later)
        #expect(outcome.ramp?.movedShare == 0.4)
        #expect(try Self.experiment(snapshot).plan?.step == 2)
        #expect(snapshot.history.suffix(2).map(\.action) == [.advance, .ramp])
        #expect(snapshot.history.suffix(2).first?.changeText
            == "step 1/3 control=90,treatment=10 → step 2/3 control=50,treatment=50: 2400 subjects, guardrails pass")
        try snapshot.apply(.edit(experiment: Self.key, .advancePlan(reason: "ok")), context: later)
        let experiment = try Self.experiment(snapshot)
        #expect(experiment.plan?.state == .done)
        #expect(experiment.plan?.lastDecision == RolloutPlan.Decision(at: Fixture.t2, action: "advance", reason: "ok"))
        #expect(throws: ExperimentError.planState(experiment: Self.key, state: .done, refused: "advance")) {
            try snapshot.apply(.edit(experiment: Self.key, .advancePlan(reason: "again")), context: later)
        }
    }

    @Test func aRollbackRampsToTheStartingWeights() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running)
        try snapshot.apply(.setPlan(experiment: Self.key, plan: Self.plan), context: Fixture.alice)
        try snapshot.apply(.edit(experiment: Self.key, .advancePlan(reason: "ok")), context: Fixture.bob)
        try snapshot.apply(.edit(experiment: Self.key, .rollBackPlan(reason: "guardrail refund fails")), context: Fixture.carol)
        let experiment = try Self.experiment(snapshot)
        #expect(experiment.weightSummary == "control=50,treatment=50")
        #expect(experiment.plan?.state == .rolledBack)
        #expect(snapshot.history.suffix(2).map(\.action) == [.rollback, .ramp])
    }

    @Test func pauseResumeAndClearKeepTheWeights() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running)
        try snapshot.apply(.setPlan(experiment: Self.key, plan: Self.plan), context: Fixture.alice)
        try snapshot.apply(.edit(experiment: Self.key, .pausePlan), context: Fixture.bob)
        #expect(try Self.experiment(snapshot).plan?.state == .paused)
        #expect(throws: ExperimentError.planState(experiment: Self.key, state: .paused, refused: "advance")) {
            try snapshot.apply(.edit(experiment: Self.key, .advancePlan(reason: "x")), context: Fixture.bob)
        }
        try snapshot.apply(.edit(experiment: Self.key, .resumePlan), context: Fixture.bob)
        try snapshot.apply(.edit(experiment: Self.key, .clearPlan), context: Fixture.carol)
        let experiment = try Self.experiment(snapshot)
        #expect(experiment.plan == nil)
        #expect(experiment.weightSummary == "control=90,treatment=10")
        #expect(snapshot.history.suffix(3).map(\.action) == [.planPause, .planResume, .planClear])
    }

    @Test(arguments: [
        ([["control": "90", "treatment": "20"]], "step 1 adds up to 110 %; a step may add up to 100 % at most"),
        ([["control": "90", "treatment": "10"], ["control": "90", "treatment": "10"]],
         "step 2 is equal to the step before it; each step must change the weights"),
        ([["control": "90", "green": "10"]], "step 1 names `green`, which is not one of the variants (`control`, `treatment`)"),
        ([], "a plan needs at least one step"),
    ])
    func plansBreakingTheRulesAreRefusedAndNothingChanges(steps: [[String: String]], message: String) throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running)
        let before = snapshot
        let plan = RolloutPlan(steps: steps.map { $0.mapValues { Fixture.w($0) } })
        #expect(throws: ExperimentError.invalidPlan(message)) { try snapshot.apply(.setPlan(experiment: Self.key, plan: plan), context: Fixture.bob) }
        #expect(snapshot == before)
    }

    @Test func aResolvedExperimentTakesNoPlan() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .resolved)
        #expect(throws: ExperimentError.resolvedIsFrozen(experiment: Self.key, what: "its ramp plan")) {
            try snapshot.apply(.setPlan(experiment: Self.key, plan: Self.plan), context: Fixture.bob)
        }
    }

    @Test func durationsReadAndWrite() {
        #expect(RolloutPlan.parseDuration("30m") == 1_800)
        #expect(RolloutPlan.parseDuration("24h") == 86_400)
        #expect(RolloutPlan.parseDuration("2d") == 172_800)
        for bad in ["0h", "-1h", "", "h", "1.5h", "1w", "0"] { #expect(RolloutPlan.parseDuration(bad) == nil, "\(bad)") }
        #expect(RolloutPlan.durationText(86_400) == "24h")
        #expect(RolloutPlan.durationText(172_800) == "2d")
        #expect(RolloutPlan.durationText(5_400) == "90m")
    }
}
