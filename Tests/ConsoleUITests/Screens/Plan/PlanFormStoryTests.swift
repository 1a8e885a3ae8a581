import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// The ramp plan form (`A`): set, pause, resume and clear a plan over a real store.
@Suite("Plan form: stories")
struct PlanFormStoryTests {
    /// Opens the form, types the steps, hold and subject count (each field replaced), and saves.
    func setPlan(_ store: StoryStore, steps: String, hold: String, minSubjects: String) {
        store.send(.character("A"), .tab)
        store.session.type(steps)
        store.send(.tab)
        store.session.type(hold)
        store.send(.tab)
        store.session.type(minSubjects)
        store.send(.enter)
    }

    func plan(_ store: StoryStore, _ key: String = "account_add_funds") throws -> RolloutPlan? {
        try #require(try store.saved().experiments[key]).plan
    }

    @Test func settingAPlanOnARunningExperimentAppliesItsFirstStep() throws {
        let store = try StoryStore.opened("account_add_funds")
        store.send(.character("A"))
        #expect(store.screen().contains { $0.contains("Ramp plan of account_add_funds") })
        #expect(store.screen().contains { $0.contains("now: no ramp plan") })
        store.send(.escape)
        setPlan(store, steps: "account_view=60 account_view=80 account_view=100", hold: "2d", minSubjects: "500")
        #expect(store.session.state.overlay == nil)
        let saved = try #require(try plan(store))
        #expect(saved.steps.count == 3 && saved.step == 1 && saved.state == .active)
        #expect(saved.holdSeconds == 172_800 && saved.minSubjects == 500)
        let experiment = try #require(try store.saved().experiments["account_add_funds"])
        #expect(experiment.variants.map(\.weight.buckets) == [4_000, 6_000], "step 1 (control takes the rest) applied at once")
        #expect(try store.saved().history.contains { $0.action.rawValue == "plan_set" && $0.operatorName == StoryStore.operatorName })
    }

    @Test func pauseResumeAndClearGoThroughTheSameForm() throws {
        let store = try StoryStore.opened("account_add_funds")
        setPlan(store, steps: "account_view=60 account_view=80", hold: "24h", minSubjects: "1000")
        store.send(.character("A"))
        guard case .plan(let form)? = store.session.state.overlay else { throw FixtureError(message: "the form did not open") }
        #expect(form.actions == [.set, .pause, .clear])
        #expect(form.steps.text == "control=40,account_view=60 control=20,account_view=80", "the form starts from the plan")
        store.send(.right, .enter)
        #expect(try plan(store)?.state == .paused)
        store.send(.character("A"), .right, .enter)
        #expect(try plan(store)?.state == .active)
        store.send(.character("A"), .left, .enter)
        #expect(try plan(store) == nil)
        let experiment = try #require(try store.saved().experiments["account_add_funds"])
        #expect(experiment.variants.map(\.weight.buckets) == [4_000, 6_000], "clearing a plan keeps the weights")
        let actions = try store.saved().history.suffix(3).map(\.action.rawValue)
        #expect(actions == ["plan_pause", "plan_resume", "plan_clear"])
    }

    @Test func badInputStaysInTheFormWithTheReasonAndWritesNothing() throws {
        let store = try StoryStore.opened("account_add_funds")
        let before = try store.bytes()
        for (steps, hold, count, reason) in [
            ("blue=10", "24h", "1000", "step 1 names `blue`, which is not one of the variants"),
            ("account_view=60 account_view=60", "24h", "1000", "step 2 is equal to the step before it"),
            ("account_view", "24h", "1000", "is not NAME=PCT"),
            ("", "24h", "1000", "give the plan's steps"),
            ("account_view=60", "0", "1000", "is not a positive duration"),
            ("account_view=60", "24h", "-5", "is not a whole number"),
        ] {
            setPlan(store, steps: steps, hold: hold, minSubjects: count)
            guard case .plan? = store.session.state.overlay else { throw FixtureError(message: "the form closed on `\(steps)`") }
            let message = try #require(store.session.state.message)
            #expect(message.isError && message.text.contains(reason), "\(message.text)")
            #expect(store.screen().joined().contains(reason.prefix(20)), "the reason is shown in the form")
            #expect(try store.bytes() == before)
            store.send(.escape)
        }
    }

    @Test func aResolvedExperimentOrAReadOnlyConsoleRefusesTheKeyWithTheReason() throws {
        let resolved = try StoryStore.opened("iap_discount")
        resolved.send(.character("A"))
        #expect(resolved.session.state.overlay == nil)
        #expect(resolved.session.state.message?.text.contains("is resolved") == true)
        let readOnly = try StoryStore.opened("account_add_funds", readOnly: true)
        readOnly.send(.character("A"))
        #expect(readOnly.session.state.overlay == nil)
        #expect(readOnly.session.state.message?.text.contains("read-only console") == true)
    }

    @Test func theListKeyOpensTheFormOfTheSelectedExperiment() throws {
        let store = try StoryStore()
        store.send(.character("A"))
        guard case .plan(let form)? = store.session.state.overlay else { throw FixtureError(message: "the form did not open") }
        #expect(form.experimentKey == store.session.state.focusedExperiment?.key)
    }
}
