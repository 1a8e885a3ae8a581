import ExperimentCore
import Testing
@testable import ConsoleUI

/// A confirmation restates its change whole: lines wider than the box wrap instead of being cut.
@Suite("Confirmation dialog: nothing cut off")
struct ConfirmViewTests {
    typealias F = FormsFixture

    @Test func aDraftsDeleteQuestionWrapsWholeAt80Columns() throws {
        var state = try F.state(selecting: "search_v2")
        F.send([.enter, .character("D")], to: &state)
        guard case .confirm? = state.overlay else {
            Issue.record("D on a draft asks first: \(String(describing: state.overlay))")
            return
        }
        let text = Snapshot.boxText(ConsoleView.render(state, width: 80, height: 24).lines())
        #expect(!text.contains("…"), "nothing is cut:\n\(text)")
        #expect(text.contains("the history keeps a line."), "the last words of the longest line are shown:\n\(text)")
    }

    @Test func everyLineWrapsWithinTheBoxAndKeepsItsWords() {
        let long = String(repeating: "word ", count: 40).trimmingCharacters(in: .whitespaces)
        let confirmation = Confirmation(title: "Long?", lines: ["short", long], change: .pause(experiment: "x"), expectedRevision: 1)
        var buffer = ScreenBuffer(width: 80, height: 24)
        ConfirmView.render(confirmation, into: &buffer, area: Rect(x: 0, y: 0, width: 80, height: 24))
        let text = Snapshot.boxText(buffer.lines())
        #expect(text.components(separatedBy: "word").count - 1 == 40, "all 40 words are on screen:\n\(text)")
    }
}
