import ExperimentCore
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
        #expect(store.screen()[2] == "▶checkout_button     user    running   ████████████████▓▓▓▓▓▓▓▓ 3      2026-03-02 11:00 carol")
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
        #expect(store.screen()[2].contains("checkout_button     user    resolved  → treatment"))
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
        store.send(.enter, .character("y"))

        let state = store.session.state
        #expect(state.overlay == nil)
        #expect(state.message?.isError == true)
        #expect(state.message?.text == "experiment `checkout_button` was changed by dave at 2026-03-02 10:00:00 UTC (revision 5 → 6) while you were looking at it; nothing was applied — review the fresh state and try again")
        #expect(state.snapshot.experiments["checkout_button"]?.variants.map(\.weight) == [FormsFixture.pct(60), FormsFixture.pct(40)])
        let saved = try store.saved()
        #expect(saved.experiments["checkout_button"]?.variants.map(\.weight) == [FormsFixture.pct(60), FormsFixture.pct(40)])
        #expect(saved.history.last?.operatorName == "dave")
        #expect(!saved.history.contains { $0.operatorName == "carol" })
        #expect(store.screen()[28].contains("was changed by dave"))
    }

    @Test func anOpenEditorWarnsOnceTheReloadShowsTheExperimentChanged() throws {
        let store = try FormsStore()
        defer { store.remove() }
        store.send(.character("r"))
        try store.store.apply(.pause(experiment: "checkout_button"), context: FormsFixture.dave)
        store.session.tick()
        #expect(store.screen().contains { $0.contains("⚠ dave changed `checkout_button` since you opened this (revision 5 → 6);") })
        guard case .ramp? = store.session.state.overlay else {
            Issue.record("the editor closed on reload")
            return
        }
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
