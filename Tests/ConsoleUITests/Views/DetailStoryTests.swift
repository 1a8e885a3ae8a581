import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

/// Opening an experiment, going back, the help overlay, and untrusted text shown escaped.
struct DetailStoryTests {
    @Test func enterOpensTheDetailAndEscGoesBack() throws {
        let story = try StoryStore()
        story.send(.character("j"), .enter)
        #expect(story.session.state.screen == .detail(key: "app_color_scheme"))
        Snapshot.assert(story.screen(), named: "story-detail-app_color_scheme")
        story.send(.escape)
        #expect(story.session.state.screen == .list)
        #expect(story.session.state.list.selectedKey == "app_color_scheme")
        story.send(.character("k"))
        #expect(story.screen() == (try StoryStore().screen()))
    }

    @Test func qOnTheDetailGoesBackInsteadOfQuitting() throws {
        let story = try StoryStore()
        story.send(.enter, .character("q"))
        #expect(story.session.exitCode == nil)
        #expect(story.session.state.screen == .list)
    }

    @Test func questionMarkOpensHelpAndEscCloses() throws {
        let story = try StoryStore()
        let list = story.screen()
        story.send(.character("?"))
        #expect(story.session.state.showsHelp)
        Snapshot.assert(story.screen(), named: "story-help-list")
        story.send(.character("j"))
        #expect(story.session.state.list.selectedKey == "account_add_funds", "keys do not reach the list under the help")
        story.send(.escape)
        #expect(!story.session.state.showsHelp)
        #expect(story.screen() == list)
        story.send(.character("?"), .character("?"))
        #expect(story.screen() == list)
        story.send(.character("?"), .character("q"))
        #expect(story.screen() == list)
        #expect(story.session.exitCode == nil, "q closes the help, it does not quit")
    }

    @Test func helpOnTheDetailListsTheDetailKeys() throws {
        let story = try StoryStore()
        story.send(.enter, .character("?"))
        let lines = story.screen()
        #expect(lines.contains { $0.contains("Experiment detail") })
        #expect(lines.contains { $0.contains("p          pause (kill switch)") })
        #expect(lines.last == " j/↓ scroll  / search  n next  Esc/q/? close")
        story.send(.escape)
        #expect(story.session.state.screen == .detail(key: "account_add_funds"))
        #expect(!story.session.state.showsHelp)
    }

    @Test func controlSequencesInADescriptionAreShownEscaped() throws {
        let story = try StoryStore { store in
            try store.apply(.create(ExperimentDraft(
                key: "escape_test", type: .user, variants: [(name: "control", weight: Weight(buckets: 5000)), (name: "b", weight: Weight(buckets: 5000))],
                description: "clears\u{1b}[2Jthe screen\u{07}")), context: ChangeContext(operatorName: "mallory", now: StoryStore.now))
        }
        story.send(.character("/"))
        story.session.type("escape")
        story.send(.enter, .enter)
        let lines = story.screen()
        #expect(lines[0].hasPrefix(" abconsole › escape_test "))
        #expect(lines[2] == " clears\\e[2Jthe screen\\x07")
        #expect(lines[1] == " escape_test  draft  user-level · revision 1")
        #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f })
    }
}
