import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

/// What a form or dialog says when its experiment moved: who, what, when, and how many changes since.
struct StaleNoteTests {
    typealias F = FormsFixture

    @Test func namesTheNewestChangeAndCountsTheOthers() throws {
        var snapshot = try F.snapshot()
        let opened = try #require(snapshot.experiments["checkout_button"]?.revision)
        #expect(StaleNote(snapshot, key: "checkout_button", openedAt: opened) == nil, "nothing moved")
        try snapshot.apply(.ramp(experiment: "checkout_button", weights: ["control": F.pct(70), "treatment": F.pct(30)]), context: F.dave)
        #expect(StaleNote(snapshot, key: "checkout_button", openedAt: opened)?.text
            == "⚠ `checkout_button` changed while this was open: dave ramped it at 2026-03-02 10:00:00 UTC (control=50,treatment=50 → control=70,treatment=30)")
        try snapshot.apply(.pause(experiment: "checkout_button"), context: F.dave)
        #expect(StaleNote(snapshot, key: "checkout_button", openedAt: opened)?.text
            == "⚠ `checkout_button` changed while this was open: dave paused it at 2026-03-02 10:00:00 UTC (running → paused), after 1 more change")
        #expect(StaleNote(snapshot, key: "gone", openedAt: opened) == nil)
    }
}
