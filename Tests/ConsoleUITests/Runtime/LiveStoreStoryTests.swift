import ExperimentCore
import Testing
@testable import ConsoleUI

/// Another operator changes the file: `tick()` picks it up and keeps the selection.
struct LiveStoreStoryTests {
    @Test func tickShowsAnExternalChangeAndKeepsTheSelection() throws {
        let story = try StoryStore()
        story.send(.character("j"), .character("j"), .character("j"))
        #expect(story.session.state.list.selectedKey == "ebook_promotion")
        story.session.tick()
        #expect(story.session.state.message == nil, "nothing changed, nothing reloaded")
        try story.changeExternally(.pause(experiment: "account_add_funds"))
        story.session.tick()
        #expect(story.session.state.snapshot == (try story.saved()))
        #expect(story.session.state.list.selectedKey == "ebook_promotion")
        let rows = story.listRows()
        #expect(rows[0].hasPrefix(" account_add_funds      user   paused   50/50 "))
        #expect(rows[0].hasSuffix(" 2026-11-04 12:00 UTC other.op"))
        #expect(rows[3].hasPrefix("▶ebook_promotion"))
        #expect(story.screen()[0].hasSuffix("8 experiments · rev 35"))
        #expect(story.screen()[28].hasPrefix(" the store changed on disk; showing the fresh state"))
    }

    @Test func anOpenDetailFollowsTheFile() throws {
        let story = try StoryStore()
        story.send(.enter)
        try story.changeExternally(.ramp(experiment: "account_add_funds", weights: ["control": Weight(buckets: 7000), "account_view": Weight(buckets: 3000)]))
        story.session.tick()
        let lines = story.screen()
        #expect(story.session.state.screen == .detail(key: "account_add_funds"))
        #expect(lines.contains { $0.hasPrefix(" █ control (control)        70 %") })
        #expect(lines.contains { $0.hasPrefix(" ▓ account_view             30 %") })
    }

    @Test func theSelectedExperimentDeletedElsewhereMovesTheSelectionToItsNeighbour() throws {
        let story = try StoryStore()
        story.send(.character("G"), .character("k"))
        #expect(story.session.state.list.selectedKey == "paywall_type")
        try story.changeExternally(.delete(experiment: "paywall_type"))
        story.session.tick()
        #expect(story.listRows().count == 7)
        #expect(story.session.state.list.selectedKey == "purchase_button_color")
    }
}
