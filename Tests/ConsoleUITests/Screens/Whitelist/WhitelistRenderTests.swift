import ExperimentCore
import Testing
@testable import ConsoleUI

@Suite("Whitelist screen: render")
struct WhitelistRenderTests {
    typealias F = ScreenFixtures

    @Test func screenShowsEntriesSortedWithUserDataEscaped() throws {
        var state = try F.state()
        F.send([.character("w"), .character("j")], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "whitelist-screen")
        #expect(lines.contains { $0.contains(#"\e[2J evil"#) })
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func filterLineShowsWhileTyping() throws {
        var state = try F.state()
        F.send([.character("w"), .character("/")] + F.typing("qa"), to: &state)
        Snapshot.assert(F.screen(state), named: "whitelist-filtering")
    }

    @Test func addFormShowsFieldsAndTheReplacementWarning() throws {
        var state = try F.state()
        F.send([.character("w"), .character("a")] + F.typing("user-1") + [.tab, .right], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "whitelist-form")
        #expect(lines.contains { $0.contains("`user-1` is already whitelisted into `treatment`; Enter asks to replace it") })
    }

    @Test func importFormShowsTheErrorThatKeptItOpen() throws {
        var state = try F.state()
        F.send([.character("w"), .character("I")] + F.typing("partners.csv") + [.enter], to: &state)
        let message = "line 2: experiment `account_add_funds` has no variant `nope`; its variants are `control`, `treatment`; nothing was imported"
        F.finishJob(.failed(message: message, snapshot: nil), &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "whitelist-import-error")
        #expect(lines.contains { $0.contains("line 2: experiment `account_add_funds` has no variant `nope`;") })
    }

    @Test func resolvedAndEmptyWhitelistsSayWhy() throws {
        var state = try F.state()
        F.send([.character("G"), .character("w")], to: &state)
        #expect(F.screen(state)[1].contains("resolved: the whitelist is frozen"))
        state = try F.state()
        F.send([.character("j"), .character("w")], to: &state)
        #expect(F.screen(state).contains { $0.contains("no whitelisted subjects yet — a adds one, I imports a CSV file") })
    }
}
