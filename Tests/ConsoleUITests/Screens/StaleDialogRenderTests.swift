import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// A review dialog that went stale and a refusal shown whole, at 100×30 (`RECORD_SNAPSHOTS=1` re-records).
@Suite("Stale dialogs: render")
struct StaleDialogRenderTests {
    typealias F = FormsFixture

    /// The ramp review of 70/30 open, then dave ramps the experiment to 60/40 and the store reloads.
    private func staleReview() throws -> AppState {
        var state = try F.state(selecting: "checkout_button")
        F.send([.character("r")] + F.typing("70") + [.tab] + F.typing("30") + [.enter], to: &state)
        var fresh = state.snapshot
        try fresh.apply(.ramp(experiment: "checkout_button", weights: ["control": F.pct(60), "treatment": F.pct(40)]), context: F.dave)
        _ = ConsoleUpdate.update(&state, .storeReloaded(fresh), now: Date(timeIntervalSince1970: 0))
        return state
    }

    @Test func aStaleReviewSaysWhatChangedAndByWhom() throws {
        let lines = F.screen(try staleReview())
        Snapshot.assert(lines, named: "stale-ramp-review")
        #expect(lines.contains { $0.contains("y ask again   n/Esc go back") })
    }

    @Test func aRefusalIsWrappedWholeInTheDialog() throws {
        var state = try staleReview()
        let refusal = "experiment `checkout_button` was changed by dave at 2026-03-02 10:00:00 UTC (revision 5 → 6) while you were looking at it; nothing was applied — review the fresh state and try again"
        guard case .confirm(var dialog)? = state.overlay else {
            Issue.record("the review is open")
            return
        }
        dialog.refusal = refusal
        state.overlay = .confirm(dialog)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "stale-ramp-refusal")
        #expect(Snapshot.boxText(lines).contains("review the fresh state and try again"))
    }
}
