import ExperimentCore
import ExperimentEditing
import ExperimentResults
import ExperimentStore
import Foundation
import Testing
@testable import ConsoleUI

/// SPEC §12's second asks in the console, over the sample store and its logs: a guardrail without
/// data (shown on the results screen as the CLI shows it), a winner the goal calls inconclusive, and
/// the metrics form offering the names the logs hold.
@Suite struct DecisionGuardStoryTests {
    /// The sample store with its logs, `key` judged by `metrics`, its detail screen open.
    static func story(_ key: String, _ metrics: ExperimentMetrics) throws -> StoryStore {
        let story = try StoryStore { store in
            let directory = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("events")
            try FileManager.default.copyItem(at: ResultsStoryTests.events, to: directory)
            _ = try store.apply(.setMetrics(experiment: key, metrics: metrics),
                                context: ChangeContext(operatorName: "setup", now: Date(timeIntervalSince1970: 1_780_000_000)))
        }
        story.send(.character("/"))
        story.session.type(key)
        story.send(.enter, .enter)
        #expect(story.session.state.screen == .detail(key: key))
        return story
    }

    /// The screen as one text, wrapped lines joined.
    static func text(_ story: StoryStore) -> String {
        story.screen().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// The open form's problem line (the screen wraps it inside the box).
    static func problem(_ story: StoryStore) -> String? {
        switch story.session.state.overlay {
        case .resolve(let form)?: form.problem
        case .metrics(let form)?: form.problem
        default: nil
        }
    }

    /// Reads the results (`e`), then opens the resolve form (`R`) on them.
    static func openResolve(_ story: StoryStore) {
        story.send(.character("e"))
        story.session.settle()
        story.send(.escape, .character("R"))
        story.session.settle()
    }

    /// Types the key on the open resolve form and presses Enter.
    static func confirm(_ story: StoryStore, _ key: String) {
        story.send(.tab)
        story.session.type(key)
        story.send(.enter)
    }

    /// Confirms `winner` of `key`: the first Enter resolves nothing and says `why`; the second resolves, recorded as forced past it.
    static func resolvesOnlyOnASecondEnter(_ story: StoryStore, _ key: String, winner: String, why: String,
                                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        confirm(story, key)
        #expect(try story.saved().experiments[key]?.status != .resolved, sourceLocation: sourceLocation)
        #expect(problem(story) == "\(why); Enter again resolves anyway (the history records it)", sourceLocation: sourceLocation)
        story.send(.enter)
        story.session.settle()
        let saved = try story.saved()
        #expect(saved.experiments[key]?.winner == winner, sourceLocation: sourceLocation)
        #expect(saved.history.last?.after == "resolved winner=\(winner) (forced past: \(why))", sourceLocation: sourceLocation)
    }

    @Test func aGuardrailWithoutDataIsShownOnTheResultsScreenAndAskedAgainOnResolve() throws {
        let metrics = ExperimentMetrics(goal: NamedMetric(metric: "add_funds"), guardrails: [NamedMetric(metric: "refnd", direction: .decrease)])
        let story = try Self.story("account_add_funds", metrics)
        story.send(.character("e"))
        story.session.settle()
        let report = try #require(story.session.state.results?.report)
        #expect(report.metrics.map(\.name).prefix(2) == ["add_funds", "refnd"])
        let text = Self.text(story)
        #expect(text.contains("guardrail refnd: no data"), "\(story.screen().joined(separator: "\n"))")
        #expect(text.contains("⚠ guardrail `refnd` has no data"))
        #expect(story.screen().contains { $0.contains("METRIC") && $0.contains(" refnd ") })
        // Every guardrail's verdict on one line, whichever metric's table is shown.
        #expect(story.screen().contains { $0.contains("guardrails: refnd NO DATA") })
        story.send(.escape, .character("R"))
        story.session.settle()
        #expect(Self.text(story).contains("guardrail refnd: no data"))
        try Self.resolvesOnlyOnASecondEnter(story, "account_add_funds", winner: "account_view", why: "guardrail refnd: no data")
    }

    /// The issue's case: `dark` leads `onboarding_done` at 76.6 % to win, inconclusive; one Enter does not resolve it.
    @Test func aWinnerTheGoalCallsInconclusiveIsAskedAgain() throws {
        let story = try Self.story("app_color_scheme", ExperimentMetrics(goal: NamedMetric(metric: "onboarding_done")))
        Self.openResolve(story)
        guard case .resolve(let form)? = story.session.state.overlay else {
            Issue.record("no resolve form: \(String(describing: story.session.state.overlay))")
            return
        }
        #expect(form.winnerName == "dark")
        try Self.resolvesOnlyOnASecondEnter(story, "app_color_scheme", winner: "dark",
                                            why: "goal onboarding_done calls dark inconclusive (76.6 %), not better")
    }

    /// The control keeps things as they are: no second ask for a goal that is not better.
    @Test func theControlIsResolvedOnOneConfirmation() throws {
        let story = try Self.story("app_color_scheme", ExperimentMetrics(goal: NamedMetric(metric: "onboarding_done")))
        Self.openResolve(story)
        story.send(.left)
        Self.confirm(story, "app_color_scheme")
        story.session.settle()
        #expect(try story.saved().experiments["app_color_scheme"]?.winner == "classic")
    }

    @Test func theMetricsFormOffersTheNamesTheLogsHold() throws {
        let story = try Self.story("account_add_funds", .none)
        story.send(.character("M"))
        story.session.settle()
        #expect(story.screen().contains { $0.contains("in the logs: add_funds · deposit · ebook_unlock") }, "\(story.screen().joined(separator: "\n"))")
        story.session.type("de")
        #expect(story.screen().contains { $0.contains("in the logs: deposit") && !$0.contains("add_funds") })
        // A name outside the set is refused in the form, saying why.
        story.send(.tab, .tab)
        story.session.type("a b")
        story.send(.enter)
        #expect(Self.problem(story) == "`a b` is not a metric name: " + MetricName.rule)
        let saved = try story.saved().experiments["account_add_funds"]?.metrics
        #expect(saved == ExperimentMetrics.none, "\(String(describing: saved))")
    }
}
