import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// Start and pause with a `y` confirmation, saved to the file; `n` changes nothing; conflicts and read-only refusals.
struct LifecycleStoryTests {
    @Test func sThenYStartsADraftAndSavesIt() throws {
        let story = try StoryStore()
        story.send(.character("G"), .character("k"))
        #expect(story.session.state.list.selectedKey == "paywall_type")
        story.send(.character("s"))
        Snapshot.assert(story.screen(), named: "story-start-confirmation")
        story.send(.character("y"))
        let saved = try story.saved()
        let experiment = try #require(saved.experiments["paywall_type"])
        #expect(experiment.status == .running)
        #expect(experiment.updatedBy == StoryStore.operatorName)
        #expect(experiment.updatedAt == StoryStore.now)
        let last = try #require(saved.history.last)
        #expect(last.experiment == "paywall_type")
        #expect(last.action.rawValue == "start")
        #expect(last.operatorName == StoryStore.operatorName)
        #expect(story.session.state.overlay == nil)
        let lines = story.screen()
        #expect(lines.contains { $0.hasPrefix("▶paywall_type           user   running  34/33/33 ") })
        #expect(lines[28].hasPrefix(" started `paywall_type`"))
    }

    @Test func pThenYPausesAndTheConfirmationNamesTheKillSwitch() throws {
        let story = try StoryStore()
        story.send(.enter, .character("p"))
        let lines = story.screen()
        #expect(lines.contains { $0.contains("Pause account_add_funds?") })
        #expect(lines.contains { $0.contains("Pause is the kill switch: every subject gets `control` at once,") })
        #expect(lines.contains { $0.contains("y apply   n/Esc go back") })
        #expect(lines.last?.hasPrefix(" y yes  n/Esc back") == true)
        Snapshot.assert(lines, named: "story-pause-confirmation")
        story.send(.character("y"))
        let saved = try story.saved()
        #expect(saved.experiments["account_add_funds"]?.status == .paused)
        #expect(saved.history.last?.action.rawValue == "pause")
        #expect(saved.history.last?.operatorName == StoryStore.operatorName)
        #expect(story.screen()[1].hasPrefix(" account_add_funds  paused  user-level · revision 5"))
        #expect(story.session.state.screen == .detail(key: "account_add_funds"))
    }

    @Test(arguments: [Key.character("n"), .escape])
    func answeringNoChangesNothing(_ key: Key) throws {
        let story = try StoryStore()
        let before = try story.bytes()
        let screen = story.screen()
        story.send(.character("p"))
        #expect(story.session.state.overlay != nil)
        story.send(key)
        #expect(story.session.state.overlay == nil)
        #expect(story.session.state.message == .info("nothing changed"))
        #expect(try story.bytes() == before)
        #expect(story.screen()[1...27] == screen[1...27])
        #expect(story.screen()[28].hasPrefix(" nothing changed "))
    }

    @Test func sOnARunningAndPOnAPausedExperimentSayAlreadyAtOnceWithoutADialog() throws {
        let story = try StoryStore()
        let before = try story.bytes()
        story.send(.character("s"))
        #expect(story.session.state.overlay == nil)
        #expect(story.session.state.message == .error("`account_add_funds` is already running"))
        try story.changeExternally(.pause(experiment: "account_add_funds"), by: "support.li")
        story.session.tick()
        let paused = try story.bytes()
        story.send(.character("p"))
        #expect(story.session.state.overlay == nil)
        #expect(story.session.state.message == .error("`account_add_funds` is already paused"))
        #expect(story.session.state.jobs.isEmpty)
        #expect(try story.bytes() == paused)
        #expect(before != paused)
    }

    @Test func aConfirmationComputedBeforeAnotherOperatorsChangeIsRefusedWholeInsideTheDialog() throws {
        let story = try StoryStore()
        story.send(.character("p"))
        try story.changeExternally(.whitelistAdd(experiment: "account_add_funds", subject: "partner-9", variant: "control", note: ""), by: "support.li")
        let external = try story.bytes()
        // The console has not reloaded yet: the core refuses the stale pause.
        story.send(.character("y"))
        #expect(try story.bytes() == external, "the stale change is not written")
        let message = try #require(story.session.state.message)
        #expect(message.isError)
        #expect(message.text.contains("support.li"))
        guard case .confirm(let dialog)? = story.session.state.overlay else {
            Issue.record("the dialog comes back with the refusal: \(String(describing: story.session.state.overlay))")
            return
        }
        #expect(dialog.refusal == message.text)
        #expect(dialog.stale?.text.contains("support.li changed its whitelist") == true)
        #expect(story.session.state.snapshot.experiments["account_add_funds"]?.whitelist.count == 3, "the fresh state is shown")
        let screen = Snapshot.boxText(story.screen())
        #expect(screen.contains("review the fresh state and try again"), "the refusal is shown whole\n\(screen)")
        // `y` on the stale dialog asks again on the fresh store; only the fresh question applies.
        story.send(.character("y"))
        #expect(try story.bytes() == external)
        guard case .confirm(let fresh)? = story.session.state.overlay else {
            Issue.record("asked again: \(String(describing: story.session.state.overlay))")
            return
        }
        #expect(fresh.stale == nil && fresh.refusal == nil)
        #expect(fresh.expectedRevision == story.session.state.snapshot.experiments["account_add_funds"]?.revision)
        story.send(.character("y"))
        #expect(try story.saved().experiments["account_add_funds"]?.status == .paused)
    }

    @Test func aReadOnlySessionRefusesStartWithAReason() throws {
        let story = try StoryStore(readOnly: true)
        let before = try story.bytes()
        story.send(.character("G"), .character("k"), .character("s"))
        #expect(story.session.state.overlay == nil)
        #expect(story.session.state.message == .error("read-only console (opened with --read-only): cannot start; restart without --read-only to make changes"))
        let lines = story.screen()
        #expect(lines[0].hasSuffix("8 experiments · rev 34 · READ-ONLY"))
        #expect(lines[28] == " read-only console (opened with --read-only): cannot start; restart without --rea… L: whole message",
                "cut, with the key that shows it whole")
        story.send(.character("p"))
        #expect(story.session.state.message?.text.contains("cannot pause") == true)
        #expect(try story.bytes() == before)
    }
}
