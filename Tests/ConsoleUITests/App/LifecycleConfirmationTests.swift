import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

@Suite("Start and pause confirmations: update")
struct LifecycleConfirmationTests {
    typealias F = FormsFixture

    @Test func sOnADraftAsksToStartItAndYAppliesOnTheRevisionShown() throws {
        var state = try F.state(selecting: "search_v2")
        #expect(F.send([.character("s")], to: &state) == [])
        let confirmation = Confirmation(
            title: "Start search_v2?",
            lines: ["Subjects will be bucketed: control=20,bm25=30,vector=30",
                    "(unallocated 20 % get `control`)."],
            change: .start(experiment: "search_v2"), expectedRevision: 1)
        #expect(state.overlay == .confirm(confirmation))
        #expect(F.send([.character("y")], to: &state).map(\.work) == [.apply(.start(experiment: "search_v2"), expectedRevision: 1)])
    }

    @Test func pOnARunningExperimentAsksToPauseAndSaysItIsTheKillSwitch() throws {
        var state = try F.state()
        #expect(F.send([.character("p")], to: &state) == [])
        let confirmation = Confirmation(
            title: "Pause checkout_button?",
            lines: ["Pause is the kill switch: every subject gets `control` at once,",
                    "whitelisted ones too, until you start it again (s)."],
            change: .pause(experiment: "checkout_button"), expectedRevision: 5)
        #expect(state.overlay == .confirm(confirmation))
        #expect(F.send([.character("y")], to: &state).map(\.work) == [.apply(.pause(experiment: "checkout_button"), expectedRevision: 5)])
    }

    @Test func sOnAPausedExperimentAsksToResumeIt() throws {
        var state = try F.state()
        try state.snapshot.apply(.pause(experiment: "checkout_button"), context: F.alice)
        F.send([.character("s")], to: &state)
        guard case .confirm(let confirmation)? = state.overlay else { throw FixtureError(message: "no confirmation") }
        #expect(confirmation.title == "Resume checkout_button?")
        #expect(confirmation.expectedRevision == 6)
    }

    @Test func nAndEscCloseTheConfirmationWithoutApplying() throws {
        for key in [Key.character("n"), .escape] {
            var state = try F.state()
            F.send([.character("p")], to: &state)
            #expect(F.send([key], to: &state) == [])
            #expect(state.overlay == nil)
            #expect(state.message == .info("nothing changed"))
        }
    }

    @Test func otherKeysOnTheConfirmationDoNothing() throws {
        var state = try F.state()
        F.send([.character("p")], to: &state)
        let overlay = state.overlay
        #expect(F.send([.character("x"), .enter, .tab], to: &state) == [])
        #expect(state.overlay == overlay)
    }

    @Test func forbiddenTransitionsAreRefusedWithTheLifecycle() throws {
        var state = try F.state()
        F.send([.character("s")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("`checkout_button` is already running"), "nothing to confirm: the key bar hides it and the key says why at once")
        state = try F.state(selecting: "search_v2")
        F.send([.character("p")], to: &state)
        #expect(state.message == .error("`search_v2` is a draft: start it before pausing (a draft serves no one)"))
        state = try F.state(selecting: "paywall_copy")
        F.send([.character("s")], to: &state)
        #expect(state.message == .error("experiment `paywall_copy` is resolved; its status can no longer change"))
    }

    @Test func startAndPauseAreRefusedReadOnly() throws {
        var state = try F.state(readOnly: true)
        F.send([.character("p")], to: &state)
        #expect(state.overlay == nil)
        #expect(state.message == .error("read-only console (opened with --read-only): cannot pause; restart without --read-only to make changes"))
        F.send([.character("s")], to: &state)
        #expect(state.message == .error("read-only console (opened with --read-only): cannot start; restart without --read-only to make changes"))
    }

    @Test func aConflictReopensTheConfirmationWithTheRefusalAndWhatChanged() throws {
        var state = try F.state()
        F.send([.character("p"), .character("y")], to: &state)
        var fresh = state.snapshot
        try fresh.apply(.pause(experiment: "checkout_button"), context: F.dave)
        F.finishJob(.failed(message: "changed by dave", snapshot: fresh), &state)
        #expect(state.jobs.isEmpty)
        #expect(state.snapshot == fresh)
        #expect(state.message == .error("changed by dave"))
        guard case .confirm(let dialog)? = state.overlay else {
            Issue.record("expected the confirmation back, got \(String(describing: state.overlay))")
            return
        }
        #expect(dialog.refusal == "changed by dave")
        #expect(dialog.stale?.text == "⚠ `checkout_button` changed while this was open: dave paused it at \(TimeLabel.utc(F.dave.now)) (running → paused)")
        // `y` asks again on the fresh store: it is paused already, so there is nothing to confirm.
        #expect(F.send([.character("y")], to: &state) == [])
        #expect(state.overlay == nil)
        #expect(state.message == .error("`checkout_button` is already paused"), "the same words and style as the p key on a paused experiment")
    }
}
