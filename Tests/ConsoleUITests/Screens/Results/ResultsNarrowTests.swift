import ExperimentCore
import ExperimentResults
import Foundation
import Testing
@testable import ConsoleUI

/// The results screen at 80×24, the smallest terminal the console supports: nothing that decides is cut.
@Suite struct ResultsNarrowTests {
    static let width = 80, height = 24

    /// The screen at 80×24.
    func narrow(_ story: StoryStore) -> [String] { story.screen(width: Self.width, height: Self.height) }

    @Test func theIntervalsTheWindowTheLastExposureAndTheWaysOutFit() throws {
        let story = try ResultsStoryTests.storeWithEvents()
        story.send(.character("e"))
        story.session.settle()
        let screen = narrow(story)
        let report = try #require(story.session.state.results?.report)
        #expect(screen.contains { $0.contains("2026-06-03T08:00:00Z – 2026-11-04T12:00:00Z") }, "the window, whole")
        let last = try #require(ResultsFormat.lastExposure(report.analysis))
        #expect(screen.contains { $0.contains(last) }, "the last exposure, worded as the CLI words it")
        #expect(screen.contains { $0.contains("account_view") && $0.hasSuffix("[+27.7 %, +92.4 %]") }, "the interval column, whole")
        let bar = try #require(screen.last)
        #expect(bar.contains("Esc cancel/back") && bar.contains("? help"), "the key bar keeps the ways out and the help")
        let axis = try #require(screen.firstIndex { $0.contains("▓ account_view") && $0.contains("━") }).advanced(by: 1)
        #expect(screen[axis].split(separator: " ").contains("0"), "the chart keeps its 0 with zero near the left edge")
        Snapshot.assert(screen, named: "results-80x24")
    }

    @Test func meanTotalsAreGroupedLikeTheCounts() throws {
        let story = try ResultsStoryTests.storeWithEvents()
        story.send(.character("e"))
        story.session.settle()
        story.send(.tab)
        let screen = narrow(story)
        #expect(screen.contains { $0.contains("1,337") && $0.contains("5,598.25") })
        Snapshot.assert(screen, named: "results-deposit-80x24")
    }

    @Test func theMismatchBannerWrapsWhole() throws {
        let story = try ResultsStoryTests.storeWithEvents()
        story.send(.character("j"), .character("j"), .character("j"), .enter, .character("e"))
        story.session.settle()
        let screen = narrow(story)
        let banner = screen.filter { $0.contains("⚠") || $0.hasPrefix("    ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(screen.contains { $0.contains("sample-ratio mismatch (p < 0.0001)") })
        #expect(screen.contains { $0.hasSuffix("trusting these results") }, "the banner's last words: \(banner)")
        #expect(screen.contains { $0.contains("newsletter 26.9 % of 33.0 %") }, "every variant's observed share, wrapped")
        Snapshot.assert(screen, named: "results-mismatch-80x24")
    }
}

extension ResultsNarrowTests {
    @Test func theVerdictAndThePlanFitWithTheChart() throws {
        let story = try DecisionStoryTests.story()
        story.send(.character("e"))
        story.session.settle()
        let screen = narrow(story)
        #expect(screen.contains { $0.contains("verdict: goal add_funds: account_view better") })
        #expect(screen.contains { $0.contains("FAILS for account_view") }, "the verdict wraps, whole")
        #expect(screen.contains { $0.contains("plan: ") })
        #expect(screen.contains { $0.contains("account_view") && $0.hasSuffix("[+27.7 %, +92.4 %]") })
        Snapshot.assert(screen, named: "results-decision-80x24")
    }
}
