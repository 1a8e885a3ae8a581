import ExperimentCore
import Testing
@testable import ConsoleUI

@Suite("History screen: render")
struct HistoryRenderTests {
    typealias F = ScreenFixtures

    @Test func allExperimentsNewestFirstWithTheSelectedChangeInFull() throws {
        var state = try F.state()
        F.send([.character("H"), .character("j")], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "history-all")
        #expect(lines.contains { $0.contains("whitelist_add") && $0.contains("∅ → user-1=control") })
    }

    @Test func oneExperimentEscapesUserData() throws {
        var state = try F.state()
        F.send([.enter, .character("H")], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "history-one")
        #expect(lines.contains { $0.contains(#"user-9=control"#) })
        #expect(!lines.joined().contains("\u{1B}"))
    }
}
