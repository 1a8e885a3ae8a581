import ExperimentCore
import ExperimentEditing
import ExperimentTestSupport
import Foundation
import Testing
@testable import ConsoleUI

/// The ramp plan on the detail screen and the list's mark of experiments under a plan (SPEC §14).
struct PlanViewTests {
    static let plan = RolloutPlan(steps: [["control": Fixture.w("90"), "treatment": Fixture.w("10")],
                                          ["control": Fixture.w("50"), "treatment": Fixture.w("50")]])

    static func state(advanced: Bool) throws -> AppState {
        var snapshot = try Fixture.snapshot("checkout", status: .running)
        try snapshot.apply(.setPlan(experiment: "checkout", plan: plan), context: Fixture.bob)
        if advanced {
            try snapshot.apply(.edit(experiment: "checkout", .advancePlan(reason: "2400 subjects, guardrails pass")), context: Fixture.carol)
        }
        try snapshot.apply(.create(Fixture.draft("other", [("a", "100")])), context: Fixture.alice)
        return AppState(snapshot: snapshot, storePath: "/tmp/experiments.json", operatorName: "dana", readOnly: false)
    }

    @Test func theDetailShowsTheStepsTheNextAdvanceAndTheLastDecision() throws {
        var state = try Self.state(advanced: false)
        state.list.selectedKey = "checkout"
        _ = ConsoleUpdate.update(&state, .key(.enter), now: Date(timeIntervalSince1970: 0), rows: RowCache())
        #expect(state.screen == .detail(key: "checkout"))
        let lines = ConsoleView.render(state, width: 120, height: 40).lines().map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex { $0.contains("RAMP PLAN") })
        #expect(Array(lines[start...(start + 3)]) == [
            "RAMP PLAN  active · step 1 of 2 · hold 24h · ≥ 1000 subjects · guardrail → rollback · mismatch → hold",
            "▸ 1  control=90,treatment=10",
            "2  control=50,treatment=50",
            "next advance: not before 2026-01-02 01:00:00 UTC, with the subjects and guardrails checked",
        ])
        var done = try Self.state(advanced: true)
        done.list.selectedKey = "checkout"
        _ = ConsoleUpdate.update(&done, .key(.enter), now: Date(timeIntervalSince1970: 0), rows: RowCache())
        let after = ConsoleView.render(done, width: 120, height: 40).lines().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(after.contains("▸ 2  control=50,treatment=50"))
        #expect(after.contains("next advance: none — the last step is reached"))
        #expect(after.contains("last decision: advance at 2026-01-01 02:00:00 UTC — 2400 subjects, guardrails pass"))
    }

    @Test func theListMarksExperimentsUnderAPlan() throws {
        let state = try Self.state(advanced: false)
        let lines = ConsoleView.render(state, width: 120, height: 30).lines()
        #expect(lines.contains { $0.contains("checkout") && $0.contains("running↗") })
        #expect(lines.contains { $0.contains("other") && $0.contains("draft ") && !$0.contains("↗") })
        let done = try Self.state(advanced: true)
        #expect(!ConsoleView.render(done, width: 120, height: 30).lines().contains { $0.contains("↗") }, "a done plan carries nothing on")
    }
}
