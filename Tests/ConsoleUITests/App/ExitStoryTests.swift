import Testing
@testable import ConsoleUI

/// Leaving the console, and a terminal too small to draw in.
struct ExitStoryTests {
    @Test func qOnTheListQuitsWithZero() throws {
        let story = try StoryStore()
        story.send(.character("q"))
        #expect(story.session.exitCode == 0)
    }

    @Test(arguments: [[Key](), [.enter], [.enter, .character("p")], [.character("?")], [.character("/")]])
    func controlCQuitsWith130FromAnywhere(_ before: [Key]) throws {
        let story = try StoryStore()
        before.forEach(story.session.send)
        #expect(story.session.exitCode == nil)
        story.send(.control("c"))
        #expect(story.session.exitCode == 130)
    }

    @Test func qWhileFilteringTypesIntoTheFilter() throws {
        let story = try StoryStore()
        story.send(.character("/"), .character("q"))
        #expect(story.session.exitCode == nil)
        #expect(story.session.state.list.filter == "q")
    }

    @Test(arguments: [(40, 10), (59, 30), (100, 15)])
    func aSmallTerminalSaysSoInsteadOfDrawing(_ size: (Int, Int)) throws {
        let story = try StoryStore()
        let lines = story.screen(width: size.0, height: size.1)
        let message = "terminal too small (need 60×16)"
        #expect(lines.count == size.1)
        #expect(lines[size.1 / 2].trimmingCharacters(in: .whitespaces) == message)
        #expect(lines.filter { !$0.isEmpty }.count == 1)
    }

    @Test func theSmallestTerminalDraws() throws {
        let story = try StoryStore()
        let lines = story.screen(width: 60, height: 16)
        #expect(lines[0].hasPrefix(" abconsole › experiments"))
        #expect(lines[14].hasPrefix(" /tmp/abstory-XXXXXXXX/experiments.json · story-op"))
    }
}
