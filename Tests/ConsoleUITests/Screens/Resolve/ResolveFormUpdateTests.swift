import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

@Suite("Resolve form: update")
struct ResolveFormUpdateTests {
    typealias F = FormsFixture

    /// The form of `checkout_button` as `R` opens it.
    func opened() throws -> (AppState, ResolveForm) {
        var state = try F.state()
        // R also asks for the results in the background: the evidence column shows them.
        let job = JobID(state.nextJobID)
        #expect(F.send([.character("R")], to: &state) == [.start(job, .readResults(experiment: "checkout_button"))])
        #expect(state.jobs.map(\.work) == [.readResults(experiment: "checkout_button")], "the form stays open while the logs are read")
        guard case .resolve(let form)? = state.overlay else { throw FixtureError(message: "no resolve form") }
        return (state, form)
    }

    @Test func capitalROpensTheFormWithTheWinnerFieldFocusedOnTheControl() throws {
        let (state, form) = try opened()
        #expect(form == ResolveForm(try F.experiment("checkout_button", in: state)))
        #expect(form.experimentKey == "checkout_button" && form.revision == 5)
        #expect(form.variants == ["control", "treatment"])
        #expect(form.whitelistCounts == [1, 2], "counted once when the form opens, not per frame")
        #expect(form.winner == 0 && form.focus == .winner && form.query == "" && form.confirmation == TextField() && form.problem == nil)
        #expect(state.bindingContext == .form)
    }

    @Test func arrowsCycleTheWinner() throws {
        var (state, form) = try opened()
        F.send([.right], to: &state)
        form.winner = 1
        #expect(state.overlay == .resolve(form))
        F.send([.right], to: &state)
        form.winner = 0
        #expect(state.overlay == .resolve(form), "→ wraps around")
        F.send([.left], to: &state)
        form.winner = 1
        #expect(state.overlay == .resolve(form), "← wraps around")
    }

    @Test func typingANameSelectsTheFirstVariantWithThatPrefix() throws {
        var (state, form) = try opened()
        F.send([.character("t")], to: &state)
        form.winner = 1
        form.query = "t"
        #expect(state.overlay == .resolve(form))
        F.send([.character("x")], to: &state)
        form.query = "tx"
        form.problem = "no variant starts with `tx`; the variants are `control`, `treatment`"
        #expect(state.overlay == .resolve(form), "no match keeps the winner and says why")
        F.send([.backspace, .backspace, .character("C")], to: &state)
        form.query = "C"
        form.winner = 0
        form.problem = nil
        #expect(state.overlay == .resolve(form), "names match case-insensitively")
        F.send([.right], to: &state)
        form.winner = 1
        form.query = ""
        #expect(state.overlay == .resolve(form), "cycling clears the typed name")
    }

    @Test func tabMovesToTheConfirmationFieldWhereTextIsTyped() throws {
        var (state, form) = try opened()
        F.send([.right, .tab] + F.typing("check"), to: &state)
        form.winner = 1
        form.focus = .confirmation
        form.confirmation = TextField("check")
        #expect(state.overlay == .resolve(form))
        F.send([.right], to: &state)
        #expect(state.overlay == .resolve(form), "arrows do not change the winner from the confirmation field")
        F.send([.backTab], to: &state)
        form.focus = .winner
        #expect(state.overlay == .resolve(form))
    }

    @Test func enterWithoutTheTypedKeyIsRefusedAndFocusesTheConfirmation() throws {
        var (state, form) = try opened()
        #expect(F.send([.enter], to: &state) == [])
        form.focus = .confirmation
        form.problem = "type the experiment key `checkout_button` in the confirmation field to resolve"
        #expect(state.overlay == .resolve(form))
    }

    @Test func enterWithAWrongKeyIsRefusedWithAClearMessage() throws {
        var (state, form) = try opened()
        #expect(F.send([.tab] + F.typing("checkout_buton") + [.enter], to: &state) == [])
        form.focus = .confirmation
        form.confirmation = TextField("checkout_buton")
        form.confirmation.selectAll()
        form.problem = "`checkout_buton` is not `checkout_button`; type the key exactly to resolve (this cannot be undone)"
        #expect(state.overlay == .resolve(form))
    }

    @Test func enterWithTheExactKeyAppliesTheResolveOnTheRevisionShown() throws {
        var (state, form) = try opened()
        let effects = F.send([.right, .tab] + F.typing("checkout_button") + [.enter], to: &state)
        #expect(effects.map(\.work) == [.apply(.resolve(experiment: "checkout_button", winner: "treatment"), expectedRevision: 5)])
        form.winner = 1
        form.focus = .confirmation
        form.confirmation = TextField("checkout_button")
        #expect(state.overlay == nil, "the form closes while it saves")
        #expect(state.storeJob?.returnTo == .resolve(form), "and comes back if the store refuses")
        #expect(state.jobs.map(\.work) == [.readResults(experiment: "checkout_button"),
                                          .apply(.resolve(experiment: "checkout_button", winner: "treatment"), expectedRevision: 5)])
    }

    @Test func aDraftIsRefusedAtOnceWithoutOpeningTheForm() throws {
        var state = try F.state(selecting: "search_v2")
        #expect(F.send([.character("R")], to: &state) == [], "no form, no read of the logs")
        #expect(state.overlay == nil)
        #expect(state.message == .error("`search_v2` is a draft: start it before resolving"))
    }

    @Test func resolvingAResolvedExperimentIsRefused() throws {
        var state = try F.state(selecting: "paywall_copy")
        F.send([.character("R")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("experiment `paywall_copy` is resolved; its winner can no longer change"))
    }

    @Test func resolvingReadOnlyIsRefused() throws {
        var state = try F.state(readOnly: true)
        F.send([.character("R")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("read-only console (opened with --read-only): cannot resolve; restart without --read-only to make changes"))
    }

    @Test func escClosesTheFormWithoutResolving() throws {
        var (state, _) = try opened()
        #expect(F.send([.tab] + F.typing("checkout_button") + [.escape], to: &state) == [])
        #expect(state.overlay == nil)
        #expect(state.message == .info("not resolved; nothing changed"))
    }
}
