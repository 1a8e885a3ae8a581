import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// PgDn and PgUp move by the rows the screen shows at the terminal's height, on every screen.
@Suite("Paging by the visible rows")
struct PagingTests {
    typealias F = ScreenFixtures

    /// 300 experiments (and their 400-odd history entries) plus a 500-entry whitelist on the first one.
    static func state() throws -> AppState {
        var snapshot = try ListRowsTests.store()
        let first = try #require(snapshot.sortedExperiments.first?.key)
        let rows = (0..<500).map { WhitelistRow(line: $0 + 1, subject: String(format: "user-%03d", $0), variant: "control", note: "") }
        try snapshot.apply(.whitelistImport(experiment: first, rows: rows), context: F.alice)
        return AppState(snapshot: snapshot, storePath: "/tmp/experiments.json", operatorName: "bob")
    }

    /// The state at `height` rows with `keys` sent, and the rows its body has.
    static func state(height: Int, after keys: [Key]) throws -> (AppState, RowCache) {
        var state = try state()
        let rows = RowCache()
        _ = ConsoleUpdate.update(&state, .resized(width: 100, height: height), now: Date(timeIntervalSince1970: 0), rows: rows)
        F.send(keys, to: &state, rows: rows)
        return (state, rows)
    }

    /// The row selected on the top screen, counted from 0.
    static func selectedRow(_ state: AppState, _ rows: RowCache) throws -> Int {
        switch state.screen {
        case .list:
            return try #require(state.list.selectedKey.flatMap(rows.listRows(state).row))
        case .whitelist(let screen):
            let experiment = try #require(state.snapshot.experiments[screen.experimentKey])
            return screen.selectedIndex(in: rows.whitelistRows(experiment, filter: screen.filter))
        case .history(let screen):
            return screen.selected
        case .inspector(let screen):
            return try #require(screen.selectedKey.flatMap { key in state.snapshot.sortedExperiments.firstIndex { $0.key == key } })
        case .detail, .results:
            Issue.record("the detail and results screens do not page")
            return 0
        }
    }

    static let screens: [(name: String, open: [Key], visible: @Sendable (Int) -> Int)] = [
        ("list", [], { ListView.visibleRows(bodyHeight: $0, showsFilter: false) }),
        ("whitelist", [.character("w")], { WhitelistScreen.visibleRows(bodyHeight: $0, showsFilter: false) }),
        ("history", [.character("H")], { HistoryScreen.visibleRows(bodyHeight: $0, showsFilter: false) }),
        ("inspector", [.character("i")] + F.typing("user-42") + [.enter], { InspectorScreen.visibleRows(bodyHeight: $0) }),
    ]

    @Test(arguments: [20, 30, 45])
    func pageDownAndUpMoveByTheVisibleRows(height: Int) throws {
        let body = height - 3
        for screen in Self.screens {
            let page = screen.visible(body)
            #expect(page > 5, "\(screen.name) shows rows at height \(height)")
            var (state, rows) = try Self.state(height: height, after: screen.open)
            #expect(try Self.selectedRow(state, rows) == 0, "\(screen.name) starts at the top")
            F.send([.pageDown], to: &state, rows: rows)
            #expect(try Self.selectedRow(state, rows) == page, "\(screen.name) at height \(height)")
            F.send([.pageDown, .pageDown], to: &state, rows: rows)
            #expect(try Self.selectedRow(state, rows) == 3 * page, "\(screen.name) at height \(height)")
            F.send([.pageUp], to: &state, rows: rows)
            #expect(try Self.selectedRow(state, rows) == 2 * page, "\(screen.name) at height \(height)")
        }
    }

    @Test func aResizeChangesThePageAndTheSelectionStaysDrawn() throws {
        var (state, rows) = try Self.state(height: 30, after: [.pageDown])
        // 100×30: 27 body rows, less the header: 26 experiments a page.
        #expect(try Self.selectedRow(state, rows) == 26)
        let selected = try #require(state.list.selectedKey)
        let drawn = ConsoleView.render(state, rows: rows, width: 100, height: 30).lines()
        #expect(drawn[2..<28].filter { $0.hasPrefix("▶") }.map { $0.dropFirst().hasPrefix(selected + " ") } == [true])
        _ = ConsoleUpdate.update(&state, .resized(width: 100, height: 20), now: Date(timeIntervalSince1970: 0), rows: rows)
        #expect(state.size == TerminalSize(width: 100, height: 20))
        F.send([.pageUp], to: &state, rows: rows)
        #expect(try Self.selectedRow(state, rows) == 26 - 16)
    }
}
