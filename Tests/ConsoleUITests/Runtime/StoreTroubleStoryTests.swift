import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// While the live reload finds the store missing or invalid, the title bar says so until a good read.
struct StoreTroubleStoryTests {
    @Test func aMissingThenInvalidThenFixedStoreIsNamedInTheTitleUntilFixed() throws {
        let story = try StoryStore()
        let good = try story.bytes()
        try FileManager.default.removeItem(atPath: story.store.path)
        story.session.tick()
        #expect(story.session.state.storeTrouble == .missing)
        #expect(story.screen()[0].hasSuffix(" store missing  8 experiments · rev 34"))
        story.send(.character("j"), .character("j"))
        #expect(story.screen()[0].contains(" store missing "), "the header stays after the message is gone")
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: story.store.path))
        story.session.tick()
        guard case .invalid(let reason)? = story.session.state.storeTrouble else { throw FixtureError(message: "not invalid") }
        #expect(!reason.isEmpty)
        #expect(story.screen()[0].contains(" store invalid: "))
        try good.write(to: URL(fileURLWithPath: story.store.path))
        story.session.tick()
        #expect(story.session.state.storeTrouble == nil)
        #expect(story.screen()[0].hasSuffix("8 experiments · rev 34"))
        #expect(!story.screen()[0].contains("store"))
    }

    @Test func troubleFromStoreErrors() {
        #expect(StoreTrouble(.missing(path: "/x")).text == "store missing")
        #expect(StoreTrouble(.unreadable(path: "/x", reason: "permission denied")).text == "store invalid: permission denied")
    }
}
