import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// The `?` overlay at 80×24 scrolls to every key and `/` searches it.
@Suite("Help panel: scroll and search")
struct HelpPanelTests {
    typealias F = ScreenFixtures

    /// The fixture state in an 80×24 terminal with the help open on the list.
    static func helpAt80x24() throws -> AppState {
        var state = try F.state()
        _ = ConsoleUpdate.update(&state, .resized(width: 80, height: 24), now: Date(timeIntervalSince1970: 0))
        F.send([.character("?")], to: &state)
        return state
    }

    static func screen(_ state: AppState) -> [String] { ConsoleView.render(state, width: 80, height: 24).lines() }

    @Test func everyBindingIsReachableByScrollingAt80x24() throws {
        var state = try Self.helpAt80x24()
        var seen = Set<String>()
        for _ in 0..<40 {
            for line in Self.screen(state) { seen.insert(line) }
            F.send([.character("j")], to: &state)
        }
        let lines = HelpOverlay.lines(state)
        for line in lines where line.kind != .blank {
            #expect(seen.contains { $0.contains(line.key.isEmpty ? line.text : "│ \(line.key)") }, "\(line.key) \(line.text) never shown")
        }
        #expect(seen.contains { $0.contains("Ctrl-C     quit from anywhere (exit 130)") })
        #expect(seen.contains { $0.contains("q          quit") })
        #expect(seen.contains { $0.contains("i          inspect a subject") })
    }

    @Test func scrollingClampsAndGJumpsToTheEnds() throws {
        var state = try Self.helpAt80x24()
        let count = HelpOverlay.lines(state).count
        let visible = HelpOverlay.visibleRows(state, lineCount: count)
        #expect(visible == 17)
        #expect(count > visible, "the list's keys do not fit in 80×24")
        F.send([.character("k")], to: &state)
        #expect(state.help.top == 0)
        F.send([.character("G")], to: &state)
        #expect(state.help.top == count - visible)
        F.send([.character("j"), .down, .pageDown], to: &state)
        #expect(state.help.top == count - visible)
        F.send([.pageUp], to: &state)
        #expect(state.help.top == count - visible - (visible - 1))
        F.send([.character("g")], to: &state)
        #expect(state.help.top == 0)
        #expect(state.list.selectedKey == "account_add_funds", "keys do not reach the list under the help")
    }

    @Test func theScrolledHelpAt80x24() throws {
        var state = try Self.helpAt80x24()
        Snapshot.assert(Self.screen(state), named: "help-80x24-top")
        F.send([.character("G")], to: &state)
        Snapshot.assert(Self.screen(state), named: "help-80x24-bottom")
    }

    @Test func slashSearchesNAndShiftNStepAndEscClears() throws {
        var state = try Self.helpAt80x24()
        F.send([.character("/")], to: &state)
        #expect(state.bindingContext == .filter, "typed keys go to the search")
        F.send(F.typing("quit"), to: &state)
        let lines = HelpOverlay.lines(state)
        let matches = HelpState.matches(of: "quit", in: lines)
        #expect(matches.map { lines[$0].key } == ["q", "Ctrl-C"])
        #expect(state.help.current == matches[0])
        #expect(Self.screen(state)[20].contains("/quit▏"))
        F.send([.enter], to: &state)
        #expect(!state.help.isSearching)
        #expect(state.bindingContext == .help)
        #expect(Self.screen(state)[20].contains("“quit”: 2 matches · n/N next/previous"))
        F.send([.character("n")], to: &state)
        #expect(state.help.current == matches[1])
        let top = state.help.top
        #expect(top <= matches[1] && matches[1] < top + HelpOverlay.visibleRows(state, lineCount: lines.count), "the match is in view")
        F.send([.character("n")], to: &state)
        #expect(state.help.current == matches[0], "n wraps around")
        F.send([.character("N")], to: &state)
        #expect(state.help.current == matches[1], "N wraps back")
        F.send([.character("/"), .character("z"), .character("z"), .escape], to: &state)
        #expect(state.help.needle == "")
        #expect(state.help.current == nil)
        #expect(state.showsHelp, "Esc ends the search, not the help")
        F.send([.escape], to: &state)
        #expect(!state.showsHelp)
    }

    @Test func aSearchWithNoMatchSaysSo() throws {
        var state = try Self.helpAt80x24()
        F.send([.character("/")] + F.typing("xyzzy") + [.enter], to: &state)
        #expect(state.help.current == nil)
        #expect(Self.screen(state)[20].contains("no match for “xyzzy” · / searches again"))
    }

    @Test func reopeningStartsAtTheTop() throws {
        var state = try Self.helpAt80x24()
        F.send([.character("G"), .character("q"), .character("?")], to: &state)
        #expect(state.help == HelpState())
    }
}
