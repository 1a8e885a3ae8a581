import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// Key sequences fed to a console session over a real store in a temp directory; the screen and the saved file asserted.
@Suite("Forms: stories on a real store")
struct FormsStoryTests {
    @Test func rampFiftyFiftyToSeventyThirtyConfirmed() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("r"))
        store.type("70")
        store.send(.tab)
        store.type("30")
        #expect(store.screen().contains { $0.contains("moves        20 % of subjects switch variant (2000 of 10000 buckets)") })
        store.send(.enter)
        #expect(store.screen().contains { $0.contains("control    50 % → 70 %") })
        #expect(store.screen().contains { $0.contains("treatment  50 % → 30 %") })
        store.send(.character("y"))

        let saved = try store.saved("checkout_button")
        #expect(saved.variants.map(\.weight) == [FormsFixture.pct(70), FormsFixture.pct(30)])
        #expect(saved.variants.map(\.ranges) == [[BucketRange(0, 5000), BucketRange(8000, 10000)], [BucketRange(5000, 8000)]],
                "treatment gives up its highest 20 %; nobody else moves")
        #expect(saved.revision == 6)
        let entry = try #require(try store.saved().history.last)
        #expect(entry.action == .ramp)
        #expect(entry.operatorName == "carol")
        #expect(entry.experiment == "checkout_button")
        #expect(entry.before == "control=50,treatment=50")
        #expect(entry.after == "control=70,treatment=30")
        let message = "ramped `checkout_button` to control=70,treatment=30; 20 % of subjects switched variant"
        #expect(store.session.state.message == .info(message))
        #expect(store.session.state.overlay == nil)
        #expect(store.screen()[28].hasPrefix(" " + message))
        #expect(store.screen()[2] == "▶checkout_button user   running  70/30    ███████▓▓▓ 3     2026-03-02 11:00 UTC carol")
    }

    @Test func noOnTheRampConfirmationReturnsToTheEditorAndSavesNothing() throws {
        let store = try FormsStore()
        defer { store.remove() }
        let before = try store.saved()
        store.send(.character("r"))
        store.type("70")
        store.send(.tab)
        store.type("30")
        store.send(.enter, .character("n"))
        #expect(store.screen().contains { $0.contains("┌─ Ramp checkout_button ─") })
        #expect(store.screen().contains { $0.contains("▶ ▓ treatment    50 %    30▏") })
        store.send(.escape)
        #expect(store.session.state.overlay == nil)
        #expect(try store.saved() == before)
    }

    @Test func resolveWithAWrongTypedKeyIsRefusedAndTheRightKeyApplies() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("R"))
        store.type("tr")
        store.send(.tab)
        store.type("checkout-button")
        store.send(.enter)
        #expect(store.screen().contains { $0.contains("✗ `checkout-button` is not") })
        #expect(store.session.state.message == nil)
        #expect(try store.saved("checkout_button").status == .running)

        for _ in "checkout-button" { store.send(.backspace) }
        store.type("checkout_button")
        store.send(.enter)
        let saved = try store.saved("checkout_button")
        #expect(saved.status == .resolved)
        #expect(saved.winner == "treatment")
        #expect(try store.saved().history.last?.operatorName == "carol")
        #expect(store.session.state.overlay == nil)
        #expect(store.session.state.message == .info("resolved `checkout_button`: everyone now gets `treatment`, forever"))
        #expect(store.screen()[2].contains("checkout_button user   resolved → treatment "))
    }

    @Test func rampingAResolvedExperimentIsRefusedWithAMessage() throws {
        let store = try FormsStore()
        defer { store.remove() }
        let before = try store.saved()
        store.send(.character("j"), .character("r"))
        #expect(store.session.state.overlay == nil)
        #expect(store.screen()[28].hasPrefix(" experiment `paywall_copy` is resolved; its weights can no longer change"))
        store.send(.enter, .character("r"))
        #expect(store.screen()[28].hasPrefix(" experiment `paywall_copy` is resolved; its weights can no longer change"), "from the detail screen too")
        #expect(try store.saved() == before)
    }

    @Test func aReadOnlyConsoleRefusesEveryFormAndSaysWhy() throws {
        let store = try FormsStore(readOnly: true)
        defer { store.remove() }
        let before = try store.saved()
        for (key, what) in [("r", "ramp"), ("R", "resolve"), ("n", "create an experiment"), ("p", "pause"), ("s", "start")] {
            store.send(.character(Character(key)))
            #expect(store.session.state.overlay == nil)
            #expect(store.screen()[28].hasPrefix(" read-only console (opened with --read-only): cannot \(what);"), "key \(key)")
        }
        #expect(try store.saved() == before)
    }

    @Test func aRampComputedAgainstAnOlderRevisionIsRefusedNamingTheOtherOperator() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("r"))
        store.type("70")
        store.send(.tab)
        store.type("30")
        try store.store.apply(.ramp(experiment: "checkout_button", weights: ["control": FormsFixture.pct(60), "treatment": FormsFixture.pct(40)]),
                              context: FormsFixture.dave)
        // The console has not reloaded yet: the review restates 50 → 70, and the core refuses it.
        store.send(.enter, .character("y"))

        let refusal = "experiment `checkout_button` was changed by dave at 2026-03-02 10:00:00 UTC (revision 5 → 6) while you were looking at it; nothing was applied — review the fresh state and try again"
        let state = store.session.state
        #expect(state.message == .error(refusal))
        guard case .confirm(let dialog)? = state.overlay else {
            Issue.record("the review comes back with the refusal: \(String(describing: state.overlay))")
            return
        }
        #expect(dialog.refusal == refusal)
        #expect(dialog.stale?.text == "⚠ `checkout_button` changed while this was open: dave ramped it at 2026-03-02 10:00:00 UTC (control=50,treatment=50 → control=60,treatment=40)")
        #expect(state.snapshot.experiments["checkout_button"]?.variants.map(\.weight) == [FormsFixture.pct(60), FormsFixture.pct(40)])
        let saved = try store.saved()
        #expect(saved.experiments["checkout_button"]?.variants.map(\.weight) == [FormsFixture.pct(60), FormsFixture.pct(40)])
        #expect(!saved.history.contains { $0.operatorName == "carol" })
        let screen = Snapshot.boxText(store.screen())
        #expect(screen.contains("review the fresh state and try again"), "the refusal is whole in the dialog\n\(screen)")

        // `y` on the stale review reopens the editor on the new weights, what was typed kept.
        store.send(.character("y"))
        guard case .ramp(let editor)? = store.session.state.overlay else {
            Issue.record("the editor reopens: \(String(describing: store.session.state.overlay))")
            return
        }
        #expect(editor.before == [FormsFixture.pct(60), FormsFixture.pct(40)])
        #expect(editor.fields.map(\.text) == ["70", "30"])
        #expect(editor.revision == 6)
        store.send(.enter)
        guard case .confirm(let review)? = store.session.state.overlay else {
            Issue.record("a fresh review: \(String(describing: store.session.state.overlay))")
            return
        }
        #expect(review.lines.prefix(2) == ["control    60 % → 70 %", "treatment  40 % → 30 %"])
        #expect(review.stale == nil)
        store.send(.character("y"))
        #expect(try store.saved().history.last?.operatorName == "carol")
        #expect(try store.saved().history.last?.before == "control=60,treatment=40")
    }

    @Test func anOpenEditorRecomputesAndSaysWhatChangedOnceTheReloadShowsIt() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("r"))
        try store.store.apply(.pause(experiment: "checkout_button"), context: FormsFixture.dave)
        store.session.tick()
        let screen = Snapshot.boxText(store.screen())
        #expect(screen.contains("dave paused it at 2026-03-02 10:00:00 UTC (running → paused)"), "\(screen)")
        guard case .ramp(let editor)? = store.session.state.overlay else {
            Issue.record("the editor closed on reload")
            return
        }
        #expect(editor.revision == 6)
    }

    @Test func newExperimentIsCreatedAsADraftAndSelected() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("n"))
        store.type("banner_copy")
        store.send(.tab, .right, .tab)
        store.type("control=60,short=50")
        store.send(.enter)
        #expect(store.screen().contains { $0.contains("✗ the weights of `banner_copy` would add up to 110 %;") })
        #expect(try store.saved().experiments["banner_copy"] == nil)

        // The refused field is focused with its text selected: End goes to its end to edit it there.
        store.send(.end, .backspace, .backspace)
        store.type("40")
        store.send(.tab)
        store.type("Shorter copy")
        store.send(.enter)
        let saved = try store.saved("banner_copy")
        #expect(saved.status == .draft)
        #expect(saved.type == .device)
        #expect(saved.control == "control")
        #expect(saved.description == "Shorter copy")
        #expect(saved.variants.map(\.name) == ["control", "short"])
        #expect(saved.variants.map(\.ranges) == [[BucketRange(0, 6000)], [BucketRange(6000, 10000)]])
        #expect(saved.updatedBy == "carol")
        #expect(store.session.state.list.selectedKey == "banner_copy")
        #expect(store.screen()[2].hasPrefix("▶banner_copy"))
        #expect(store.screen()[28].hasPrefix(" created draft `banner_copy` (control=60,short=40)"))
    }

    @Test func startThenPauseThroughTheirConfirmations() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("G"), .character("s"))
        #expect(store.screen().contains { $0.contains("Start search_v2?") })
        store.send(.character("y"))
        #expect(try store.saved("search_v2").status == .running)
        store.send(.character("p"))
        #expect(store.screen().contains { $0.contains("Pause is the kill switch") })
        store.send(.character("y"))
        #expect(try store.saved("search_v2").status == .paused)
        #expect(try store.saved().history.suffix(2).map(\.operatorName) == ["carol", "carol"])
    }
}
