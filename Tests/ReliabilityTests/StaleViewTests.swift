import ExperimentCore
import ExperimentEditing
import Foundation
import Testing

/// Two operators ramping the same experiment from views that went stale: no lost update.
@Suite struct StaleViewTests {
    @Test func theSecondRampFromAStaleViewIsRefusedNamingTheFirstOperator() throws {
        let store = try TempStore()
        try store.createRunning()
        // Both operators look at the experiment at the same revision.
        let aliceView = try store.file.load(), bobView = try store.file.load()
        let seen = try #require(aliceView.experiments["checkout"]?.revision)
        #expect(bobView.experiments["checkout"]?.revision == seen)

        let alice = ChangeContext(operatorName: "alice", now: TempStore.t0)
        try store.file.apply(.ramp(experiment: "checkout", weights: ["control": Weight(buckets: 3000), "treat": Weight(buckets: 7000)]),
                             expectedRevision: seen, context: alice)
        let afterAlice = try #require(store.bytes())

        let bob = ChangeContext(operatorName: "bob", now: TempStore.t1)
        let error = #expect(throws: StoreError.self) {
            try store.file.apply(.ramp(experiment: "checkout", weights: ["control": Weight(buckets: 9000), "treat": Weight(buckets: 1000)]),
                                 expectedRevision: seen, context: bob)
        }
        guard case .refused(let refusal)? = error, case .conflict(let experiment, let expected, let actual, let by, _) = refusal else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        #expect(experiment == "checkout" && expected == seen && actual == seen + 1 && by == "alice")
        #expect(refusal.message.contains("changed by alice"))
        #expect(store.bytes() == afterAlice, "Bob's stale ramp wrote nothing")
        let final = try store.file.load()
        #expect(final.experiments["checkout"]?.variants.map(\.weight.buckets) == [3000, 7000])
        #expect(final.history.filter { $0.action == .ramp }.map(\.operatorName) == ["alice"])
    }

    @Test func aStaleViewOfAnotherExperimentIsNotAConflict() throws {
        let store = try TempStore()
        try store.createRunning("one")
        try store.createRunning("two")
        let view = try store.file.load()
        let context = ChangeContext(operatorName: "alice", now: TempStore.t0)
        try store.file.apply(.pause(experiment: "one"), expectedRevision: view.experiments["one"]?.revision, context: context)
        try store.file.apply(.pause(experiment: "two"), expectedRevision: view.experiments["two"]?.revision, context: context)
        #expect(try store.file.load().experiments.values.map(\.status) == [.paused, .paused])
    }
}
