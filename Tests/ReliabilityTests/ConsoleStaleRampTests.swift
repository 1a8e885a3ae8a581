import ConsoleRuntime
import ConsoleUI
import ExperimentCore
import Foundation
import Testing

/// Two operators ramp the same experiment in two consoles opened on the same store: the second, whose
/// view went stale, is refused naming the first, and nothing of it is written.
@Suite struct ConsoleStaleRampTests {
    private func ramp(_ session: ConsoleSession, control: String, treat: String) {
        session.send(.character("r"))
        session.type(control)
        session.send(.tab)
        session.type(treat)
        session.send(.enter)
        session.send(.character("y"))
    }

    @Test func theSecondConsolesRampIsRefusedNamingTheFirstOperator() throws {
        let store = try TempStore()
        try store.createRunning()
        let alice = try ConsoleSession(store: store.file, operatorName: "alice", settleTime: 10, clock: { TempStore.t0 })
        let bob = try ConsoleSession(store: store.file, operatorName: "bob", settleTime: 10, clock: { TempStore.t1 })

        ramp(alice, control: "70", treat: "30")
        #expect(alice.state.message?.isError == false, "\(String(describing: alice.state.message))")
        let afterAlice = try #require(store.bytes())
        #expect(try store.file.load().experiments["checkout"]?.variants.map(\.weight.buckets) == [7000, 3000])

        // Bob's console has not reloaded: his editor starts from the 50/50 he still sees.
        ramp(bob, control: "10", treat: "90")
        let message = try #require(bob.state.message)
        #expect(message.isError)
        #expect(message.text.contains("alice"), "\(message.text)")
        #expect(store.bytes() == afterAlice, "the stale ramp wrote nothing")
        #expect(bob.state.snapshot.experiments["checkout"]?.variants.map(\.weight.buckets) == [7000, 3000], "Bob now sees Alice's ramp")
        #expect(try store.file.load().history.filter { $0.action == .ramp }.map(\.operatorName) == ["alice"])
    }
}
