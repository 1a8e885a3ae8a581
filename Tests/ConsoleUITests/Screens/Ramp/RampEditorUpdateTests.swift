import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

@Suite("Ramp editor: update")
struct RampEditorUpdateTests {
    typealias F = FormsFixture

    /// The editor of `checkout_button` as `r` opens it.
    func opened() throws -> (AppState, RampEditor) {
        var state = try F.state()
        #expect(F.send([.character("r")], to: &state) == [])
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no ramp editor") }
        return (state, editor)
    }

    @Test func rOpensTheEditorOnTheSelectedExperimentWithTheFirstFieldFocused() throws {
        let (state, editor) = try opened()
        var expected = RampEditor(try F.experiment("checkout_button", in: state))
        expected.focus = 0
        #expect(editor == expected)
        #expect(editor.experimentKey == "checkout_button")
        #expect(editor.revision == 5)
        #expect(editor.variants == ["control", "treatment"])
        #expect(editor.before == [F.pct(50), F.pct(50)])
        #expect(editor.fields.map(\.text) == ["50", "50"])
        #expect(editor.focus == 0 && editor.fields[0].isAllSelected && editor.problem == nil)
        #expect(state.bindingContext == .rampEditor)
    }

    @Test func theFirstDigitReplacesTheValueAndTheNextOnesAppend() throws {
        var (state, editor) = try opened()
        F.send([.character("7")], to: &state)
        editor.fields[0].text = "7"
        #expect(state.overlay == .ramp(editor))
        F.send(F.typing("0.5"), to: &state)
        editor.fields[0].text = "70.5"
        #expect(state.overlay == .ramp(editor))
        F.send([.backspace, .backspace], to: &state)
        editor.fields[0].text = "70"
        #expect(state.overlay == .ramp(editor))
    }

    @Test func tabAndArrowsMoveBetweenFieldsAndFocusingAgainReplaces() throws {
        var (state, editor) = try opened()
        F.send([.character("7"), .tab, .character("3"), .character("0")], to: &state)
        editor.fields = [TextField("7"), TextField("30")]
        editor.focus = 1
        #expect(state.overlay == .ramp(editor))
        F.send([.backTab], to: &state)
        editor.focus = 0
        editor.fields[editor.focus].selectAll()
        #expect(state.overlay == .ramp(editor))
        F.send([.character("6"), .down, .down], to: &state)
        editor.fields[0].text = "6"
        editor.focus = 0
        editor.fields[0].selectAll()
        editor.fields[1].selectAll()
        #expect(state.overlay == .ramp(editor), "↓ past the last field wraps to the first; each field focused on the way is selected")
        F.send([.up], to: &state)
        editor.focus = 1
        #expect(state.overlay == .ramp(editor), "↑ from the first field wraps to the last")
    }

    @Test func plusAndMinusStepByOnePercentClampedToZeroAndHundred() throws {
        var (state, editor) = try opened()
        F.send([.character("+"), .character("+")], to: &state)
        editor.fields[0].text = "52"
        editor.fields[0].selectAll()
        #expect(state.overlay == .ramp(editor), "+/- keep the field selected: the first digit still replaces it")
        F.send(F.typing("99.5") + [.character("+"), .character("+")], to: &state)
        editor.fields[0].text = "100"
        #expect(state.overlay == .ramp(editor))
        F.send([.tab] + F.typing("0.4") + [.character("-"), .character("-")], to: &state)
        editor.fields[1].text = "0"
        editor.focus = 1
        #expect(state.overlay == .ramp(editor))
    }

    @Test func plusOnAFieldThatIsNotAWeightStepsFromTheOpeningWeight() throws {
        var (state, editor) = try opened()
        F.send(F.typing("1.234") + [.character("+")], to: &state)
        editor.fields[0].text = "51"
        #expect(state.overlay == .ramp(editor))
    }

    @Test func lettersAreRefusedWithAHintAndLeaveTheField() throws {
        var (state, editor) = try opened()
        F.send([.character("x")], to: &state)
        editor.problem = "a weight is a percentage: type digits and `.` (e.g. 12.5), or use +/-"
        #expect(state.overlay == .ramp(editor))
        F.send([.character("4")], to: &state)
        editor.problem = nil
        editor.fields[0].text = "4"
        #expect(state.overlay == .ramp(editor), "the next key clears the hint; the field still replaces on its first digit")
    }

    @Test func questionMarkOpensTheHelpBecauseNoWeightContainsIt() throws {
        var (state, editor) = try opened()
        F.send([.character("?")], to: &state)
        #expect(state.showsHelp)
        #expect(state.overlay == .ramp(editor))
        F.send([.escape], to: &state)
        #expect(!state.showsHelp)
        #expect(state.overlay == .ramp(editor), "closing the help returns to the editor as it was")
    }

    @Test func thePreviewShowsTheTrueMinimumShareThatSwitchesVariant() throws {
        var (state, _) = try opened()
        F.send(F.typing("70") + [.tab] + F.typing("30"), to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        let preview = RampPreview(editor, experiment: try F.experiment("checkout_button", in: state))
        #expect(preview.weights == [F.pct(70), F.pct(30)])
        #expect(preview.total == F.pct(100))
        #expect(preview.problem == nil)
        #expect(preview.unallocated == .zero)
        #expect(preview.plan?.movedBuckets == 2000)
        #expect(preview.plan.map(RampPreview.movedText) == "20 % of subjects switch variant (2000 of 10000 buckets)")
    }

    @Test func shrinkingIntoTheUnallocatedPoolCountsTheSubjectsWhoLeave() throws {
        var (state, _) = try opened()
        F.send(F.typing("40") + [.tab] + F.typing("45"), to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        let preview = RampPreview(editor, experiment: try F.experiment("checkout_button", in: state))
        #expect(preview.unallocated == F.pct(15))
        #expect(preview.plan?.movedBuckets == 1500)
    }

    @Test func enterOpensAConfirmationRestatingTheChangeThatReturnsToTheEditor() throws {
        var (state, editor) = try opened()
        F.send(F.typing("70") + [.tab] + F.typing("30"), to: &state)
        #expect(F.send([.enter], to: &state) == [])
        editor.fields = [TextField("70"), TextField("30")]
        editor.focus = 1
        editor.fields[1].selectAll()
        let confirmation = Confirmation(
            title: "Ramp checkout_button?",
            lines: ["control    50 % → 70 %",
                    "treatment  50 % → 30 %",
                    "",
                    "20 % of subjects switch variant (2000 of 10000 buckets)."],
            change: .ramp(experiment: "checkout_button", weights: ["control": F.pct(70), "treatment": F.pct(30)]),
            expectedRevision: 5,
            returnTo: .ramp(editor))
        #expect(state.overlay == .confirm(confirmation))
        #expect(state.bindingContext == .confirm)

        F.send([.character("n")], to: &state)
        #expect(state.overlay == .ramp(editor), "n returns to the editor with what was typed")
        #expect(state.message == .info("nothing changed"))

        F.send([.enter, .escape], to: &state)
        #expect(state.overlay == .ramp(editor), "Esc on the confirmation returns to the editor too")

        F.send([.enter], to: &state)
        #expect(F.send([.character("y")], to: &state).map(\.work) == [.apply(confirmation.change, expectedRevision: 5)])
    }

    @Test func theConfirmationShowsTheUnallocatedShareWhenItChanges() throws {
        var (state, _) = try opened()
        F.send(F.typing("40") + [.tab] + F.typing("45") + [.enter], to: &state)
        guard case .confirm(let confirmation)? = state.overlay else { throw FixtureError(message: "no confirmation") }
        #expect(confirmation.lines == ["control        50 % → 40 %",
                                       "treatment      50 % → 45 %",
                                       "(unallocated)   0 % → 15 %",
                                       "",
                                       "15 % of subjects switch variant (1500 of 10000 buckets)."])
    }

    @Test func enterWithTheSumOverHundredShowsWhyAndNothingReachesTheStore() throws {
        var (state, editor) = try opened()
        F.send(F.typing("70"), to: &state)
        #expect(F.send([.enter], to: &state) == [])
        editor.fields[0].text = "70"
        editor.fields[0].selectAll()
        editor.problem = "cannot review: see the red check above; nothing was saved"
        #expect(state.overlay == .ramp(editor))
        let preview = RampPreview(editor, experiment: try F.experiment("checkout_button", in: state))
        #expect(preview.problem == "the weights add up to 120 %, 20 % over 100 %; lower a weight")
        #expect(preview.plan == nil && preview.unallocated == nil)
    }

    @Test func anUnreadableFieldIsNamedWithTheReason() throws {
        var (state, _) = try opened()
        F.send(F.typing("12.345"), to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        let preview = RampPreview(editor, experiment: try F.experiment("checkout_button", in: state))
        #expect(preview.problem == "`control`: weight `12.345` has more than two decimals (0.01 % is the smallest step)")
        F.send([.backspace, .backspace, .backspace, .backspace, .backspace, .backspace], to: &state)
        guard case .ramp(let emptied)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(RampPreview(emptied, experiment: try F.experiment("checkout_button", in: state)).problem
            == "`control` has no weight; type a percentage from 0 to 100")
        #expect(F.send([.enter], to: &state) == [])
    }

    @Test func enterWithUnchangedWeightsSaysSo() throws {
        var (state, editor) = try opened()
        #expect(F.send([.enter], to: &state) == [])
        editor.problem = "the weights are unchanged; edit a field, or Esc to leave"
        #expect(state.overlay == .ramp(editor))
    }

    @Test func escCancelsTheEditor() throws {
        var (state, _) = try opened()
        F.send(F.typing("70") + [.escape], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .info("ramp cancelled; nothing changed"))
    }

    @Test func rampingAResolvedExperimentIsRefusedWithTheCoreMessage() throws {
        var state = try F.state(selecting: "paywall_copy")
        #expect(F.send([.character("r")], to: &state) == [])
        #expect(state.overlay == nil)
        #expect(state.message == .error("experiment `paywall_copy` is resolved; its weights can no longer change"))
    }

    @Test func rampingReadOnlyIsRefusedWithTheReason() throws {
        var state = try F.state(readOnly: true)
        F.send([.character("r")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("read-only console (opened with --read-only): cannot ramp; restart without --read-only to make changes"))
    }

    @Test func anExperimentResolvedWhileTheEditorIsOpenCannotBeReviewed() throws {
        var (state, _) = try opened()
        F.send(F.typing("70") + [.tab] + F.typing("30"), to: &state)
        var snapshot = state.snapshot
        try snapshot.apply(.resolve(experiment: "checkout_button", winner: "control"), context: F.dave)
        _ = ConsoleUpdate.update(&state, .storeReloaded(snapshot), now: Date(timeIntervalSince1970: 0))
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "the editor closed") }
        #expect(RampPreview(editor, experiment: try F.experiment("checkout_button", in: state)).problem
            == "experiment `checkout_button` is resolved; its weights can no longer change")
        #expect(F.send([.enter], to: &state) == [])
        guard case .ramp? = state.overlay else { throw FixtureError(message: "Enter left the editor") }
    }

    /// A field showing `33.335` after a refused review: typing `50` gives `50`, not `33.33550`.
    @Test func afterAFailedReviewTypingReplacesTheFieldAsShown() throws {
        var (state, _) = try opened()
        F.send(F.typing("33.335") + [.enter], to: &state)
        guard case .ramp(let refused)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(refused.problem == "cannot review: see the red check above; nothing was saved")
        #expect(refused.focus == 0 && refused.fields[0].text == "33.335" && refused.fields[0].isAllSelected)
        F.send(F.typing("50"), to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(editor.fields[0].text == "50", "typing replaces the value shown; it does not append to it")
        #expect(editor.problem == nil)
    }

    @Test func aFailedReviewFocusesTheFirstUnreadableField() throws {
        var (state, _) = try opened()
        F.send(F.typing("50") + [.tab] + F.typing("1.2.3") + [.backTab, .enter], to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(editor.focus == 1 && editor.fields[1].isAllSelected && editor.fields[1].text == "1.2.3")
    }

    @Test func backFromTheConfirmationTypingReplacesTheFocusedField() throws {
        var (state, _) = try opened()
        F.send(F.typing("70") + [.tab] + F.typing("30") + [.enter, .character("n")] + F.typing("40"), to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(editor.fields.map(\.text) == ["70", "40"])
    }

    @Test func arrowsHomeAndDeleteEditInsideAWeight() throws {
        var (state, _) = try opened()
        #expect(state.bindingContext == .rampEditor)
        #expect(KeyBindings.intent(for: .left, in: .rampEditor) == .editText)
        F.send(F.typing("75") + [.home, .character("1"), .delete], to: &state)
        guard case .ramp(let editor)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(editor.fields[0].text == "15" && editor.fields[0].cursor == 1)
        F.send([.end, .left, .character("."), .right, .character("5")], to: &state)
        guard case .ramp(let edited)? = state.overlay else { throw FixtureError(message: "no editor") }
        #expect(edited.fields[0].text == "1.55")
    }
}
