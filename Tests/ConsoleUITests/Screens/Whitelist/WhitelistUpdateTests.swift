import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

@Suite("Whitelist screen: update")
struct WhitelistUpdateTests {
    typealias F = ScreenFixtures

    /// The fixture state with the whitelist of `account_add_funds` open.
    static func opened(readOnly: Bool = false) throws -> AppState {
        var state = try F.state(readOnly: readOnly)
        F.send([.character("w")], to: &state)
        return state
    }

    static func screen(_ state: AppState) -> WhitelistScreen? {
        if case .whitelist(let screen)? = state.stack.last { return screen }
        return nil
    }

    /// The rows the top whitelist shows (from a fresh cache).
    static func rows(_ state: AppState) -> WhitelistRows? {
        guard let screen = screen(state), let experiment = state.snapshot.experiments[screen.experimentKey] else { return nil }
        return RowCache().whitelistRows(experiment, filter: screen.filter)
    }

    static func expected(filter: String = "", isFiltering: Bool = false, selected: SubjectID?) -> WhitelistScreen {
        var screen = WhitelistScreen(experimentKey: "account_add_funds")
        screen.filter = filter
        screen.isFiltering = isFiltering
        screen.selectedSubject = selected
        return screen
    }

    @Test func wOpensTheWhitelistSortedBySubjectWithTheFirstSelected() throws {
        let state = try Self.opened()
        #expect(state.stack == [.whitelist(Self.expected(selected: "qa-bot"))])
        #expect(Self.rows(state)?.subjects == ["qa-bot", "user-1", "user-9"])
        #expect(state.bindingContext == .whitelist)
    }

    @Test func movementKeysMoveAndClamp() throws {
        var state = try Self.opened()
        F.send([.character("j")], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-1"))
        F.send([.down, .down, .down], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-9"))
        F.send([.character("k")], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-1"))
        F.send([.character("g")], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "qa-bot"))
        F.send([.character("G")], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-9"))
        F.send([.pageUp], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "qa-bot"))
        F.send([.pageDown], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-9"))
    }

    @Test func filterNarrowsAtOnceOnSubjectVariantOrNoteAndEnterKeepsIt() throws {
        var state = try Self.opened()
        F.send([.character("/")], to: &state)
        #expect(Self.screen(state) == Self.expected(isFiltering: true, selected: "qa-bot"))
        F.send(F.typing("Q"), to: &state)
        // "q" is in qa-bot (subject) and "partner QA" (note of user-1), case-insensitively.
        #expect(Self.screen(state) == Self.expected(filter: "Q", isFiltering: true, selected: "qa-bot"))
        #expect(Self.rows(state)?.subjects == ["qa-bot", "user-1"])
        F.send([.backspace] + F.typing("par"), to: &state)
        #expect(Self.rows(state)?.subjects == ["user-1"])
        #expect(Self.screen(state) == Self.expected(filter: "par", isFiltering: true, selected: "user-1"))
        F.send(F.typing("tner"), to: &state)
        #expect(Self.rows(state)?.subjects == ["user-1"])
        F.send(Array(repeating: .backspace, count: 7), to: &state)
        #expect(Self.rows(state)?.subjects == ["qa-bot", "user-1", "user-9"])
        F.send(F.typing("control"), to: &state)
        #expect(Self.rows(state)?.subjects == ["user-9"])
        F.send([.enter], to: &state)
        #expect(Self.screen(state) == Self.expected(filter: "control", selected: "user-9"))
        // With the filter kept, keys act again: Esc clears the filter, a second Esc goes back.
        F.send([.escape], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-9"))
        F.send([.escape], to: &state)
        #expect(state.stack.isEmpty)
    }

    @Test func escWhileFilteringClearsTheFilter() throws {
        var state = try Self.opened()
        F.send([.character("/")] + F.typing("zzz"), to: &state)
        #expect(Self.rows(state)?.subjects == [])
        F.send([.escape], to: &state)
        #expect(Self.screen(state) == Self.expected(selected: "qa-bot"))
        #expect(Self.rows(state)?.matching.count == 3)
    }

    @Test func addFormSavesThroughTheCoreWithTheRevisionShown() throws {
        var state = try Self.opened()
        let experiment = try #require(state.snapshot.experiments["account_add_funds"])
        F.send([.character("a")], to: &state)
        #expect(state.overlay == .whitelistAdd(WhitelistForm(experiment)))
        #expect(state.bindingContext == .form)
        F.send(F.typing("partner-7"), to: &state)
        F.send([.tab], to: &state)
        F.send(F.typing("t"), to: &state)
        F.send([.tab], to: &state)
        let effects = F.send(F.typing("Acme QA") + [.enter], to: &state)
        #expect(effects.map(\.work) == [.apply(.whitelistAdd(experiment: "account_add_funds", subject: "partner-7", variant: "treatment", note: "Acme QA"),
                                   expectedRevision: experiment.revision)])
        var form = WhitelistForm(experiment)
        form.subject = TextField("partner-7")
        form.variantIndex = 1
        form.variantQuery = "t"
        form.note = TextField("Acme QA")
        form.focus = .note
        #expect(state.overlay == nil, "the form closes while it saves")
        #expect(state.jobs.map(\.returnTo) == [.whitelistAdd(form)], "and comes back if the save fails")
        // The new entry will be selected once saved.
        #expect(Self.screen(state)?.selectedSubject == "partner-7")
    }

    @Test func variantFieldCyclesWithArrowsAndPicksByTypedPrefix() throws {
        var state = try Self.opened()
        F.send([.character("a"), .tab], to: &state)
        func form() -> WhitelistForm? { if case .whitelistAdd(let form)? = state.overlay { form } else { nil } }
        #expect(form()?.focus == .variant)
        #expect(form()?.variant == "control")
        F.send([.right], to: &state)
        #expect(form()?.variant == "treatment")
        F.send([.right], to: &state)
        #expect(form()?.variant == "control")
        F.send([.left], to: &state)
        #expect(form()?.variant == "treatment")
        F.send(F.typing("co"), to: &state)
        #expect(form()?.variant == "control")
        #expect(form()?.variantQuery == "co")
        F.send(F.typing("x"), to: &state)
        #expect(form()?.variant == "control")
        #expect(state.message == .error("no variant starts with `cox`; the variants are `control`, `treatment`"))
        F.send([.backTab, .backTab], to: &state)
        #expect(form()?.focus == .note)
    }

    @Test func emptySubjectIsRefusedBeforeTheCore() throws {
        var state = try Self.opened()
        let effects = F.send([.character("a"), .enter], to: &state)
        #expect(effects == [])
        #expect(state.message == .error("type the user id to whitelist first"))
        F.send([.escape], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .info("nothing changed"))
    }

    @Test func dAsksThenYRemovesTheSelectedEntry() throws {
        var state = try Self.opened()
        let experiment = try #require(state.snapshot.experiments["account_add_funds"])
        F.send([.character("j"), .character("d")], to: &state)
        let change = Change.whitelistRemove(experiment: "account_add_funds", subject: "user-1")
        #expect(state.overlay == .confirm(Confirmation(
            title: "Remove `user-1` from the whitelist of `account_add_funds`?",
            lines: ["It is forced into `treatment` (added by alice, 2026-07-22 10:00:00 UTC).",
                    "Afterwards it gets `treatment` (bucket 6471, bucketed)."],
            change: change, expectedRevision: experiment.revision)))
        let effects = F.send([.character("y")], to: &state)
        #expect(effects.map(\.work) == [.apply(change, expectedRevision: experiment.revision)])
    }

    @Test func nAbandonsTheRemoval() throws {
        var state = try Self.opened()
        F.send([.character("d"), .character("n")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .info("nothing changed"))
        #expect(Self.screen(state) == Self.expected(selected: "qa-bot"))
    }

    @Test func importFormSendsThePathWithTheRevisionShown() throws {
        var state = try Self.opened()
        let experiment = try #require(state.snapshot.experiments["account_add_funds"])
        F.send([.character("I")], to: &state)
        #expect(state.overlay == .importCSV(ImportForm(experiment)))
        #expect(F.send([.enter], to: &state) == [])
        #expect(state.message == .error("type the path of a CSV file of subject,variant[,note] lines"))
        let effects = F.send(F.typing("partners.csv") + [.enter], to: &state)
        #expect(effects.map(\.work) == [.importWhitelist(experiment: "account_add_funds", path: "partners.csv", expectedRevision: experiment.revision)])
        #expect(state.message == nil)
    }

    @Test func failedImportKeepsTheFormOpenWithTheLineInTheMessage() throws {
        var state = try Self.opened()
        F.send([.character("I")] + F.typing("bad.csv") + [.enter], to: &state)
        let open = state.jobs.first?.returnTo
        let message = "line 2: experiment `account_add_funds` has no variant `nope`; its variants are `control`, `treatment`; nothing was imported"
        F.finishJob(.failed(message: message, snapshot: state.snapshot), &state)
        #expect(state.overlay == open)
        #expect(state.message == .error(message))
    }

    @Test func resolvedExperimentRefusesAddRemoveAndImportWithTheCoreMessage() throws {
        var state = try F.state()
        F.send([.character("G"), .character("w")], to: &state)
        #expect(state.stack == [.whitelist({ var s = WhitelistScreen(experimentKey: "old_banner"); s.selectedSubject = "user-1"; return s }())])
        let refusal = ExperimentError.resolvedIsFrozen(experiment: "old_banner", what: "its whitelist").message
        for key in ["a", "d", "I"] {
            state.message = nil
            F.send([.character(Character(key))], to: &state)
            #expect(state.overlay == nil)
            #expect(state.message == .error(refusal))
        }
    }

    @Test func readOnlyRefusesWithItsMessage() throws {
        var state = try Self.opened(readOnly: true)
        F.send([.character("a")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("read-only console (opened with --read-only): cannot add to the whitelist; restart without --read-only to make changes"))
        F.send([.character("d")], to: &state)
        #expect(state.message?.text.contains("cannot remove from the whitelist") == true)
        F.send([.character("I")], to: &state)
        #expect(state.message?.text.contains("cannot import a whitelist") == true)
        #expect(state.overlay == nil)
    }

    @Test func removalOfTheSelectedEntryMovesTheSelectionToTheNext() throws {
        var state = try Self.opened()
        F.send([.character("j"), .character("d"), .character("y")], to: &state)
        var snapshot = state.snapshot
        try snapshot.apply(.whitelistRemove(experiment: "account_add_funds", subject: "user-1"), context: F.alice)
        F.finishJob(.saved(message: "removed", snapshot: snapshot), &state)
        #expect(Self.screen(state) == Self.expected(selected: "user-9"))
        #expect(Self.rows(state)?.subjects == ["qa-bot", "user-9"])
    }

    @Test func iOnARowInspectsThatSubject() throws {
        var state = try Self.opened()
        F.send([.character("i")], to: &state)
        var expected = InspectorScreen()
        expected.userID = TextField("qa-bot")
        expected.subject = Subject(userID: "qa-bot")
        expected.selectedKey = "account_add_funds"
        expected.focus = .table
        #expect(state.stack.last == .inspector(expected), "the first row, qa-bot, in the user id field (a user experiment), run")
        F.send([.escape, .character("j"), .character("j"), .character("i")], to: &state)
        expected.userID = TextField("user-9")
        expected.subject = Subject(userID: "user-9")
        #expect(state.stack.last == .inspector(expected))
    }

    @Test func iOnAnEmptyWhitelistOpensTheInspectorAsLeft() throws {
        var state = try F.state()
        F.send([.character("G"), .character("k"), .character("w")], to: &state)
        #expect(state.stack.last == .whitelist(WhitelistScreen(experimentKey: "new_flow")))
        F.send([.character("i")], to: &state)
        #expect(state.stack.last == .inspector(InspectorScreen()))
    }
}
