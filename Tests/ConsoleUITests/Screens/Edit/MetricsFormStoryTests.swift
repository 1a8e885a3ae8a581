import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// `M` on the detail screen names the goal and guardrail metrics, as `set-metrics` does (SPEC §12).
@Suite("Metrics form: stories")
struct MetricsFormStoryTests {
    /// The status bar line.
    func status(_ store: StoryStore) -> String { store.screen()[StoryStore.height - 2] }

    @Test func capitalMSavesTheGoalItsDirectionAndTheGuardrails() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("M"))
        #expect(store.screen().contains { $0.contains("Metrics of account_add_funds") })
        store.session.type("account_add_funds")
        store.send(.tab, .right, .tab)
        store.session.type("refund:decrease, support_ticket:decrease,latency")
        store.send(.enter)
        #expect(store.session.state.overlay == nil)
        let saved = try #require(try store.saved().experiments["account_add_funds"])
        let wanted = ExperimentMetrics(goal: NamedMetric(metric: "account_add_funds", direction: .decrease),
                                       guardrails: [NamedMetric(metric: "refund", direction: .decrease),
                                                    NamedMetric(metric: "support_ticket", direction: .decrease), NamedMetric(metric: "latency")])
        #expect(saved.metrics == wanted)
        let entry = try #require(try store.saved().history.last)
        #expect(entry.action == .setMetrics && entry.operatorName == StoryStore.operatorName && entry.before == nil)
        #expect(entry.after == "goal account_add_funds:decrease; guardrails refund:decrease, support_ticket:decrease, latency")
        #expect(status(store).hasPrefix(" `account_add_funds` now judges its variants by goal account_add_funds:decrease"))
        #expect(store.screen().contains { $0.contains("metrics") && $0.contains("goal account_add_funds:decrease; guardrails refund:decrease") },
                "the detail screen shows the metrics")
    }

    @Test func theFormStartsFromTheMetricsAndEmptyFieldsClearThem() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("M"))
        store.session.type("purchase")
        store.send(.tab, .tab)
        store.session.type("refund:decrease")
        store.send(.enter)
        store.send(.character("M"))
        guard case .metrics(let form)? = store.session.state.overlay else { throw FixtureError(message: "no form") }
        #expect(form.goal.text == "purchase" && form.goal.isAllSelected && form.direction == .increase)
        #expect(form.guardrails.text == "refund:decrease")
        store.send(.backspace, .tab, .tab, .control("u"), .enter)
        let saved = try #require(try store.saved().experiments["account_add_funds"])
        #expect(saved.metrics == .none)
        #expect(try store.saved().history.last.map { [$0.action.rawValue, $0.before ?? ""] } == ["set_metrics", "goal purchase; guardrails refund:decrease"])
        #expect(status(store).hasPrefix(" cleared the goal and guardrail metrics of `account_add_funds`"))
    }

    @Test func aMetricNamedTwiceIsShownInTheFormAndNothingIsSaved() throws {
        let store = try StoryStore.opened("account_add_funds")
        let before = try store.bytes()
        store.send(.character("M"))
        store.session.type("purchase")
        store.send(.tab, .tab)
        store.session.type("purchase:decrease")
        store.send(.enter)
        guard case .metrics(let form)? = store.session.state.overlay else { throw FixtureError(message: "the form closed") }
        #expect(form.problem == "metric `purchase` is named twice (a metric is the goal or a guardrail, once)")
        #expect(form.focus == .guardrails)
        #expect(try store.bytes() == before)
    }

    @Test func unchangedMetricsSaveNothing() throws {
        let store = try StoryStore.opened("account_add_funds")
        let before = try store.bytes()
        store.send(.character("M"), .enter)
        #expect(store.session.state.overlay == nil)
        #expect(try store.bytes() == before)
        #expect(status(store).hasPrefix(" unchanged; nothing saved"))
    }

    @Test func aResolvedExperimentStillTakesMetricsAndAReadOnlyConsoleRefuses() throws {
        let resolved = try StoryStore.opened("iap_discount")
        resolved.send(.character("M"))
        #expect(resolved.session.state.overlay.map { if case .metrics = $0 { true } else { false } } == true,
                "metrics describe how to read results, so every status takes them")
        let readOnly = try StoryStore.opened("iap_discount", readOnly: true)
        readOnly.send(.character("M"))
        #expect(readOnly.session.state.overlay == nil)
        #expect(readOnly.session.state.message?.text.hasPrefix("read-only console (opened with --read-only): cannot set the metrics") == true)
    }

    @Test func theFormAt100x30() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("M"))
        // The form's read of the logs for metric names has answered (no logs beside this store).
        store.session.settle()
        store.session.type("purchase")
        store.send(.tab, .right)
        Snapshot.assert(store.screen(), named: "edit-metrics")
    }
}
