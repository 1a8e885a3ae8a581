import ExperimentCore
import ExperimentResults
import Foundation
import Testing
@testable import ConsoleUI

/// `e` on a real store with the sample event logs beside it: loading off the render loop, the numbers, Tab, b/f, Esc.
@Suite struct ResultsStoryTests {
    static let events = StoryStore.sample.deletingLastPathComponent().appendingPathComponent("events")

    /// A story store with sample-data/events/ copied beside it.
    static func storeWithEvents() throws -> StoryStore {
        try StoryStore { store in
            let directory = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("events")
            try FileManager.default.copyItem(at: events, to: directory)
        }
    }

    @Test func eOnTheListShowsTheSelectedExperimentsResults() throws {
        let story = try Self.storeWithEvents()
        story.send(.character("e"))
        #expect(story.session.state.stack == [.results(key: "account_add_funds")])
        #expect(story.session.state.results?.isLoading == true)
        story.session.settle()
        let report = try #require(story.session.state.results?.report)
        #expect(report.analysis.subjects.analysed == 2_700)
        #expect(report.metrics.map(\.name) == ["add_funds", "deposit", "ebook_unlock"])
        Snapshot.assert(story.screen(), named: "results-account_add_funds")
        story.send(.tab)
        #expect(story.session.state.results?.metric == 1)
        story.send(.character("f"))
        #expect(story.session.state.results?.report?.engine == .frequentist(sequential: false))
        Snapshot.assert(story.screen(), named: "results-deposit-frequentist")
        story.send(.escape)
        #expect(story.session.state.stack.isEmpty)
    }

    @Test func aMismatchShowsItsBanner() throws {
        let story = try Self.storeWithEvents()
        story.send(.character("j"), .character("j"), .character("j"))
        #expect(story.session.state.list.selectedKey == "ebook_promotion")
        story.send(.enter, .character("e"))
        story.session.settle()
        #expect(story.session.state.results?.report?.sampleRatio.status == .mismatch)
        #expect(story.screen().contains { $0.contains("sample-ratio mismatch (p < 0.0001)") })
        Snapshot.assert(story.screen(), named: "results-ebook_promotion-mismatch")
    }

    @Test func missingLogsSayWhereTheyWereLookedFor() throws {
        let story = try StoryStore()
        story.send(.character("e"))
        story.session.settle()
        guard case .failed(let message)? = story.session.state.results?.phase else {
            Issue.record("expected a failure, got \(String(describing: story.session.state.results?.phase))")
            return
        }
        #expect(message.contains("/events/exposures.jsonl: no such file"))
        #expect(story.screen().contains { $0.contains("cannot show results") })
    }

    @Test func theResolveFormShowsTheVerdictPerVariant() throws {
        let story = try Self.storeWithEvents()
        story.send(.character("R"))
        story.session.settle()
        let screen = story.screen()
        #expect(screen.contains { $0.contains("RESULTS") })
        #expect(screen.contains { $0.contains("account_view") && $0.contains("+60.0 %") && $0.contains("to win") })
        Snapshot.assert(screen, named: "results-resolve-evidence")
    }
}
