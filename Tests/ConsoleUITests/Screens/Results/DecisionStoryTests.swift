import ExperimentCore
import ExperimentEditing
import ExperimentResults
import ExperimentStore
import Foundation
import Testing
@testable import ConsoleUI

/// SPEC §12 in the console: the verdict and plan lines on the results screen, and a resolve form
/// that preselects the goal's leader and asks a second time when a guardrail fails.
@Suite struct DecisionStoryTests {
    /// The sample store with its logs, `account_add_funds` judged by `add_funds` (goal) and `deposit` (a guardrail, lower is better).
    static func story() throws -> StoryStore {
        try StoryStore { store in
            let directory = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("events")
            try FileManager.default.copyItem(at: ResultsStoryTests.events, to: directory)
            let metrics = ExperimentMetrics(goal: NamedMetric(metric: "add_funds"), guardrails: [NamedMetric(metric: "deposit", direction: .decrease)])
            _ = try store.apply(.setMetrics(experiment: "account_add_funds", metrics: metrics),
                                context: ChangeContext(operatorName: "setup", now: Date(timeIntervalSince1970: 1_780_000_000)))
        }
    }

    @Test func theResultsScreenSaysTheVerdictAndTheDaysStillNeeded() throws {
        let story = try Self.story()
        story.send(.character("e"))
        story.session.settle()
        let report = try #require(story.session.state.results?.report)
        #expect(report.metrics.map(\.role) == [.goal, .guardrail, .other])
        let screen = story.screen()
        // The verdict wraps rather than being cut: read it as one text.
        let text = screen.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("verdict: goal add_funds: account_view better") && text.contains("guardrail deposit FAILS for account_view"))
        #expect(screen.contains { $0.contains("plan: ") && $0.contains("80 % power at a 5 % effect") })
        #expect(screen.contains { $0.contains("guardrails: deposit FAILS") })
        // Beside the chance to win, one sentence says what the power is for.
        #expect(text.contains("power: the chance of detecting a true 5 % effect — it says how long to run, not who wins"), "\(text)")
    }

    @Test func theResolveFormPreselectsTheLeaderAndAsksAgainOnAFailedGuardrail() throws {
        let story = try Self.story()
        story.send(.character("e"))
        story.session.settle()
        story.send(.escape, .character("R"))
        story.session.settle()
        guard case .resolve(let form)? = story.session.state.overlay else {
            Issue.record("no resolve form: \(String(describing: story.session.state.overlay))")
            return
        }
        #expect(form.winnerName == "account_view")
        #expect(story.screen().contains { $0.contains("guardrail deposit FAILS for account_view") })
        story.send(.tab)
        story.session.type("account_add_funds")
        story.send(.enter)
        #expect(try story.saved().experiments["account_add_funds"]?.status != .resolved)
        #expect(story.screen().contains { $0.contains("Enter again resolves anyway") })
        story.send(.enter)
        story.session.settle()
        let saved = try story.saved()
        #expect(saved.experiments["account_add_funds"]?.winner == "account_view")
        #expect(saved.history.last?.after?.hasPrefix("resolved winner=account_view (forced past: guardrail deposit FAILS for account_view") == true)
    }
}
