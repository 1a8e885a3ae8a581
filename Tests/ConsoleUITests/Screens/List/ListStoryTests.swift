import ExperimentCore
import Testing
@testable import ConsoleUI

/// The experiment list: the whole screen, the incremental filter, and movement.
struct ListStoryTests {
    @Test func theListScreenShowsEveryExperiment() throws {
        let story = try StoryStore()
        Snapshot.assert(story.screen(), named: "story-list")
    }

    @Test func typingAFilterNarrowsTheListAtOnce() throws {
        let story = try StoryStore()
        story.send(.character("/"))
        #expect(story.screen().last == " Enter keep  Esc clear")
        story.session.type("p")
        #expect(story.listRows().count == 6)  // every key or description with a "p"
        story.session.type("a")
        #expect(story.listRows().map { String($0.prefix(23)).trimmingCharacters(in: .whitespaces) } == ["▶paywall_type", "purchase_button_color"])
        story.session.type("y")
        let lines = story.screen()
        #expect(lines[1] == " /pay▏")
        #expect(story.listRows().count == 1)
        #expect(story.listRows().first?.hasPrefix("▶paywall_type           user   draft    34/33/33 ") == true)
        Snapshot.assert(lines, named: "story-list-filtering-pay")
    }

    @Test func enterKeepsTheFilterAndSelectsTheFirstMatch() throws {
        let story = try StoryStore()
        story.send(.character("/"))
        story.session.type("pay")
        story.send(.enter)
        #expect(story.session.state.list.isFiltering == false)
        #expect(story.session.state.list.filter == "pay")
        #expect(story.session.state.list.selectedKey == "paywall_type")
        #expect(story.screen()[1] == " filter: pay")
        #expect(story.listRows().count == 1)
        story.send(.enter)
        #expect(story.session.state.screen == .detail(key: "paywall_type"))
        story.send(.escape)
        #expect(story.screen()[1] == " filter: pay")
        story.send(.escape)
        #expect(story.session.state.list.filter == "")
        #expect(story.listRows().count == 8)
        let reference = try StoryStore()
        reference.send(.character("G"), .character("k"))
        #expect(story.screen() == reference.screen(), "the whole list again, paywall_type still selected")
    }

    @Test func escapeWhileTypingClearsTheFilter() throws {
        let story = try StoryStore()
        story.send(.character("/"))
        story.session.type("pay")
        story.send(.escape)
        #expect(story.session.state.list == ListState.selecting("paywall_type"))
        #expect(story.listRows().count == 8)
        #expect(story.screen().last == " Enter open  / filter  n new  r ramp  w whitelist  e results  q quit  ? help  i inspect")
    }

    @Test func escapeAfterAFilterThatMatchedNothingSelectsARowAgain() throws {
        let story = try StoryStore()
        story.send(.character("/"))
        story.session.type("zzz")
        #expect(story.screen().contains(" no experiment matches the filter — Esc clears it"))
        story.send(.escape)
        #expect(story.screen() == (try StoryStore().screen()), "the first row is drawn as selected")
        #expect(story.session.state.list.selectedKey == "account_add_funds")
        story.send(.enter)
        #expect(story.session.state.screen == .detail(key: "account_add_funds"))
    }

    @Test func backspaceWidensTheFilterAgain() throws {
        let story = try StoryStore()
        story.send(.character("/"))
        story.session.type("pay")
        story.send(.backspace, .backspace)
        #expect(story.screen()[1] == " /p▏")
        #expect(story.listRows().count == 6)
    }

    @Test func jkgGAndPagesMoveTheSelection() throws {
        let story = try StoryStore()
        func selected() -> String? { story.listRows().first { $0.hasPrefix("▶") }.map { String($0.dropFirst().prefix { $0 != " " }) } }
        #expect(selected() == "account_add_funds")
        story.send(.character("j"))
        #expect(selected() == "app_color_scheme")
        story.send(.down, .down)
        #expect(selected() == "ebook_promotion")
        story.send(.character("k"))
        #expect(selected() == "cash_projection_banner")
        story.send(.up)
        #expect(selected() == "app_color_scheme")
        story.send(.character("G"))
        #expect(selected() == "purchase_button_color")
        #expect(story.session.state.list.selectedKey == "purchase_button_color")
        story.send(.character("j"))
        #expect(story.session.state.list.selectedKey == "purchase_button_color", "j stops at the last row")
        story.send(.character("g"))
        #expect(selected() == "account_add_funds")
        story.send(.character("k"))
        #expect(selected() == "account_add_funds", "k stops at the first row")
        story.send(.pageDown)
        #expect(story.session.state.list.selectedKey == "purchase_button_color", "PgDn moves a page (26 rows at 100×30), clamped to the last of 8")
        story.send(.pageUp)
        #expect(selected() == "account_add_funds")
        story.send(.end, .home)
        #expect(selected() == "account_add_funds")
    }
}

extension ListState {
    /// A list with no filter and `key` selected.
    static func selecting(_ key: String) -> ListState {
        var state = ListState()
        state.selectedKey = key
        return state
    }
}

/// `?` typed into the list filter is text, not the help key.
struct FilterQuestionMarkTests {
    @Test func questionMarkInTheFilterIsTyped() throws {
        let story = try StoryStore()
        story.send(.character("/"))
        story.send(.character("?"))
        #expect(story.session.state.showsHelp == false)
        #expect(story.session.state.list.filter == "?")
    }
}
