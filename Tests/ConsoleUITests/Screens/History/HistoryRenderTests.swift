import ExperimentCore
import ExperimentEditing
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
        #expect(lines.contains(" by      alice · 2026-07-22 10:00:00 UTC"))
    }

    @Test func oneExperimentEscapesUserData() throws {
        var state = try F.state()
        F.send([.enter, .character("H")], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "history-one")
        #expect(lines.contains { $0.contains(#"user-9=control"#) })
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func sixtyColumnsKeepTimeExperimentAndActionWhole() throws {
        var state = try F.state()
        F.send([.character("H"), .character("j")], to: &state)
        let lines = ConsoleView.render(state, rows: RowCache(), width: 60, height: 24).lines()
        Snapshot.assert(lines, named: "history-60")
        #expect(lines[2] == " TIME                 EXPERIMENT        ACTION")
        #expect(lines[4] == "▶2026-07-22 10:00 UTC old_banner        whitelist_add")
        #expect(lines.contains(" after   user-1=control note=\"\""), "the change is shown in full below")
    }

    @Test func anImportNamesTheSubjectsItAddedAndReplaced() throws {
        var state = try F.state()
        let rows = (1...25).map { WhitelistRow(line: $0, subject: "user-\($0)", variant: "control", note: "") }
        try state.snapshot.apply(.edit(experiment: "account_add_funds", .whitelistImport(rows: rows)), context: F.alice)
        F.send([.character("H")], to: &state)
        let lines = F.screen(state)
        Snapshot.assert(lines, named: "history-import")
        let entry = try #require(state.snapshot.history.last)
        #expect(lines[3].hasSuffix("account_add_funds whitelist_import ∅ → 25 entries (23 new, 2 re…"))
        // The detail shows the same text as `abconsole history` (`HistoryEntry.changeText`), wrapped.
        let detail = lines.drop { !$0.hasPrefix(" after") }.prefix(4).map { $0.dropFirst(9) }.joined(separator: " ")
        #expect(detail.hasPrefix("25 entries (23 new, 2 replaced); new: \"user-2\", \"user-3\""))
        #expect(entry.changeText.hasPrefix("∅ → 25 entries (23 new, 2 replaced); new: \"user-2\""))
        #expect(detail.contains("; replaced: \"user-1\", \"user-9\"; "))
        #expect(detail.hasSuffix("5 more"))
    }
}
