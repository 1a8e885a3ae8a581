import ExperimentResults
import Testing
@testable import ConsoleUI

/// The read of the logs is the console's, not the results screen's: it outlives the screen, so `e` or
/// `R` again shows it (with its metric and engine) without reading the logs again.
@Suite struct ResultsHeldTests {
    @Test func eAgainShowsTheHeldReadWithItsMetricAndEngine() throws {
        let story = try ResultsStoryTests.storeWithEvents()
        story.send(.character("e"))
        story.session.settle()
        story.send(.tab, .character("f"), .escape)
        #expect(story.session.state.stack.isEmpty)
        #expect(story.session.state.results?.report != nil, "closing the screen keeps the read")
        story.send(.character("e"))
        #expect(story.session.state.stack == [.results(key: "account_add_funds")])
        #expect(story.session.state.jobs.isEmpty, "no second read of the logs")
        #expect(story.session.state.results?.metric == 1)
        #expect(story.session.state.results?.report?.engine == .frequentist(sequential: false))
    }

    @Test func theResolveFormShowsTheReadTheResultsScreenLeft() throws {
        let story = try ResultsStoryTests.storeWithEvents()
        story.send(.character("e"))
        story.session.settle()
        story.send(.escape, .character("R"))
        guard case .resolve? = story.session.state.overlay else {
            Issue.record("expected the resolve form, got \(String(describing: story.session.state.overlay))")
            return
        }
        #expect(story.session.state.jobs.isEmpty, "the evidence is the held read")
        #expect(story.screen().contains { $0.contains("account_view") && $0.contains("to win") })
    }
}
