import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// The whitelist screen stays responsive with 100,000+ entries: it sorts once per store change,
/// narrows the previous matches when the filter grows, restores them on Backspace, and renders
/// only the visible rows.
@Suite("Whitelist screen: scale")
struct WhitelistScaleTests {
    typealias F = ScreenFixtures

    /// The fixture store with `count` more subjects imported into `account_add_funds`, the list showing.
    static func bigState(count: Int) throws -> AppState {
        var snapshot = try F.snapshot()
        let rows = (0..<count).map { WhitelistRow(line: $0 + 1, subject: "user-\($0)", variant: $0 % 3 == 0 ? "control" : "treatment",
                                                  note: $0 % 1000 == 0 ? "partner \($0)" : "") }
        try snapshot.apply(.whitelistImport(experiment: "account_add_funds", rows: rows), context: F.alice)
        return AppState(snapshot: snapshot, storePath: "/tmp/experiments.json", operatorName: "bob")
    }

    static func seconds(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test func movingFilteringAndRenderingStayFastWith100kEntries() throws {
        var state = try Self.bigState(count: 100_000)
        let rows = RowCache()
        let open = Self.seconds { F.send([.character("w")], to: &state, rows: rows) }
        let move = Self.seconds { F.send(Array(repeating: .character("j"), count: 50), to: &state, rows: rows) }
        let render = Self.seconds { for _ in 0..<10 { _ = F.screen(state, rows: rows) } }
        F.send([.character("/")], to: &state, rows: rows)
        let firstKey = Self.seconds { F.send([.character("p")], to: &state, rows: rows) }
        let narrowing = Self.seconds { F.send(F.typing("artner"), to: &state, rows: rows) }
        let backspaces = Self.seconds { F.send(Array(repeating: .backspace, count: 6), to: &state, rows: rows) }
        F.send(F.typing("artner"), to: &state, rows: rows)
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("whitelist of 100,001 (\(build) build): open \(open) s · 50 moves \(move) s · 10 renders \(render) s · "
              + "first filter key \(firstKey) s · 6 narrowing keys \(narrowing) s · 6 backspaces \(backspaces) s")
        guard case .whitelist(let screen)? = state.stack.last else {
            Issue.record("the whitelist is not open")
            return
        }
        let experiment = try #require(state.snapshot.experiments[screen.experimentKey])
        #expect(rows.whitelistRows(experiment, filter: screen.filter).matching.count == 100)
        #expect(F.screen(state, rows: rows)[1].hasPrefix(" 100 of 100001 entries match · rows 1–24"))
        // Generous bounds for an unoptimised build on a busy 2-core machine; a re-sort per key or
        // drawing every row would take seconds each.
        #expect(move < 1)
        #expect(render < 1)
        #expect(narrowing < 1)
        #expect(backspaces < 1)
        #expect(firstKey < 5)
    }
}
