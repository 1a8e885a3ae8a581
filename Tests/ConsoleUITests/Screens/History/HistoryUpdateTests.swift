import ExperimentCore
import Testing
@testable import ConsoleUI

@Suite("History screen: update")
struct HistoryUpdateTests {
    typealias F = ScreenFixtures

    static func screen(_ state: AppState) -> HistoryScreen? {
        if case .history(let screen)? = state.stack.last { return screen }
        return nil
    }

    static func expected(_ key: String?, scope: String?, selected: Int = 0) -> HistoryScreen {
        var screen = HistoryScreen(experimentKey: key)
        screen.scopeKey = scope
        screen.selected = selected
        return screen
    }

    @Test func hOnTheListShowsEverythingAndATogglesToTheSelectedExperiment() throws {
        var state = try F.state()
        F.send([.character("j"), .character("H")], to: &state)
        #expect(state.stack == [.history(HistoryScreen(experimentKey: nil))])
        F.send([.character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected("app_color_scheme", scope: "app_color_scheme"))
        F.send([.character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected(nil, scope: "app_color_scheme"))
        F.send([.character("q")], to: &state)
        #expect(state.stack.isEmpty)
    }

    @Test func hOnTheDetailShowsThatExperimentAndAShowsAll() throws {
        var state = try F.state()
        F.send([.enter, .character("H")], to: &state)
        #expect(state.stack == [.detail(key: "account_add_funds"), .history(HistoryScreen(experimentKey: "account_add_funds"))])
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == 5)
        F.send([.character("a")], to: &state)
        #expect(Self.screen(state) == Self.expected(nil, scope: "account_add_funds"))
        #expect(Self.screen(state)?.rows(in: state.snapshot).count == F.changes.count)
        F.send([.escape], to: &state)
        #expect(state.stack == [.detail(key: "account_add_funds")])
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
