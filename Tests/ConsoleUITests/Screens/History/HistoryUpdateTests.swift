import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

@Suite("History screen: update")
struct HistoryUpdateTests {
    typealias F = ScreenFixtures

    static func screen(_ state: AppState) -> HistoryScreen? {
        if case .history(let screen)? = state.stack.last { return screen }
        return nil
    }

    static func expected(_ key: String?, selected: Int = 0, filter: String = "", isFiltering: Bool = false) -> HistoryScreen {
        var screen = HistoryScreen(experimentKey: key)
        screen.selected = selected
        screen.filter = filter
        screen.isFiltering = isFiltering
        return screen
    }

    /// The experiment and action of the selected row.
    static func current(_ state: AppState) -> String? {
        guard let screen = screen(state), let index = screen.selectedEntry(screen.rows(in: state.snapshot)) else { return nil }
        let entry = state.snapshot.history[index]
        return "\(entry.experiment) \(entry.action.rawValue)"
    }

    @Test func aNarrowsToTheExperimentUnderTheCursorNotTheListSelection() throws {
        var state = try F.state()
        F.send([.character("j"), .character("H")], to: &state)  // the list selects app_color_scheme
        #expect(state.stack == [.history(HistoryScreen(experimentKey: nil))])
        F.send([.character("j"), .character("j"), .character("j"), .character("j")], to: &state)
        #expect(Self.current(state) == "new_flow create")
        #expect(F.screen(state)[1].hasSuffix("a: only `new_flow`"))
        F.send([.character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected("new_flow"))
        F.send([.character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected(nil, selected: 4), "the same change stays selected")
        #expect(Self.current(state) == "new_flow create")
        F.send([.character("q")], to: &state)
        #expect(state.stack.isEmpty)
    }

    @Test func hOnTheDetailShowsThatExperimentAndAShowsAllOnTheSameChange() throws {
        var state = try F.state()
        F.send([.enter, .character("H")], to: &state)
        #expect(state.stack == [.detail(key: "account_add_funds"), .history(HistoryScreen(experimentKey: "account_add_funds"))])
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == 5)
        F.send([.character("j")], to: &state)
        F.send([.character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected(nil, selected: 8))
        #expect(Self.current(state) == "account_add_funds whitelist_add")
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == F.changes.count)
        F.send([.escape], to: &state)
        #expect(state.stack == [.detail(key: "account_add_funds")])
    }

    @Test func slashFiltersByOperatorActionExperimentOrChange() throws {
        var state = try F.state()
        F.send([.character("H"), .character("/")], to: &state)
        #expect(state.bindingContext == .filter)
        F.send(F.typing("WHITELIST_ADD"), to: &state)
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == 4, "the action, ASCII letters in any case")
        F.send([.control("u")] + F.typing("qa-bot"), to: &state)
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == 1, "the change text")
        #expect(F.screen(state)[2] == " /qa-bot▏")
        F.send([.enter], to: &state)
        #expect(Self.screen(state) == Self.expected(nil, filter: "qa-bot"))
        #expect(state.bindingContext == .history)
        #expect(F.screen(state)[2] == " filter: qa-bot")
        F.send([.escape], to: &state)
        #expect(Self.screen(state) == Self.expected(nil, selected: 7), "Esc clears a kept filter and keeps the change selected")
        #expect(Self.current(state) == "account_add_funds whitelist_add")
        F.send([.character("/")] + F.typing("new_flow"), to: &state)
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == 1, "the experiment")
        F.send([.escape], to: &state)
        #expect(Self.screen(state)?.filter == "")
        F.send([.character("/")] + F.typing("zzz"), to: &state)
        #expect(F.screen(state).contains("  no change matches the filter — Esc clears it"))
        F.send([.escape, .escape], to: &state)
        #expect(state.stack.isEmpty)
    }

    @Test func aWithAFilterKeepsTheFilter() throws {
        var state = try F.state()
        F.send([.character("H"), .character("/")] + F.typing("create") + [.enter, .character("j"), .character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected("new_flow", filter: "create"))
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == 1)
    }

    @Test func rowsAreNewestFirst() throws {
        let state = try F.state()
        let rows = HistoryScreen(experimentKey: "old_banner").rows(in: state.snapshot)
        #expect(rows.map { state.snapshot.history[$0].action } == [.resolve, .whitelistAdd, .start, .create])
    }

    @Test func movementClampsToTheEntries() throws {
        var state = try F.state()
        F.send([.character("H")], to: &state)
        F.send([.character("j"), .down], to: &state)
        #expect(Self.screen(state)?.selected == 2)
        F.send([.character("G")], to: &state)
        #expect(Self.screen(state)?.selected == F.changes.count - 1)
        F.send([.character("j"), .pageDown], to: &state)
        #expect(Self.screen(state)?.selected == F.changes.count - 1)
        F.send([.character("k")], to: &state)
        #expect(Self.screen(state)?.selected == F.changes.count - 2)
        F.send([.pageUp], to: &state)
        #expect(Self.screen(state)?.selected == 0)
        F.send([.character("G"), .character("g")], to: &state)
        #expect(Self.screen(state)?.selected == 0)
    }
}

extension HistoryUpdateTests {
    @Test func aOnAChangeOfADeletedExperimentExplains() throws {
        var state = try F.state()
        try state.snapshot.apply(.delete(experiment: "new_flow"), context: F.alice)
        F.send([.character("H")], to: &state)
        let row = try #require(Self.screen(state)?.rows(in: state.snapshot).firstIndex { state.snapshot.history[$0].experiment == "new_flow" && state.snapshot.history[$0].action == .create })
        F.send(Array(repeating: Key.character("j"), count: row) + [.character("a")], to: &state)
        #expect(Self.screen(state)?.experimentKey == nil)
        #expect(state.message == .error("`new_flow` was deleted; `abconsole history new_flow` lists its changes"))
    }

    @Test func oneExperimentAtSixtyColumnsShowsTheChange() throws {
        var state = try F.state()
        F.send([.enter, .character("H")], to: &state)
        let lines = ConsoleView.render(state, rows: RowCache(), width: 60, height: 24).lines()
        #expect(lines[2] == " TIME                 ACTION           BEFORE → AFTER")
        #expect(lines[3] == "▶2026-07-22 10:00 UTC whitelist_add    ∅ → qa-bot=treatmen…")
    }
}
