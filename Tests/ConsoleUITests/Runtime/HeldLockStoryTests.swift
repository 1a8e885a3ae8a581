#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// Saving while another writer holds the store's lock: the screen says so and for how long, stays
/// responsive (help, navigation), `Esc` gives up, and the save lands once the lock is free.
@Suite(.serialized)
struct HeldLockStoryTests {
    /// An exclusive `flock` on the store's lock file, as another writer holds it.
    final class HeldLock {
        private var descriptor: Int32

        init(_ store: String) throws {
            descriptor = open(store + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw FixtureError(message: "cannot lock \(store)") }
        }

        func release() {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }

        deinit { release() }
    }

    /// Ticks the session (as the terminal loop does on its input timeout) until a screen line contains `text`.
    static func waitFor(_ text: String, _ story: StoryStore, seconds: Double = 5) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            story.session.tick()
            if story.screen().contains(where: { $0.contains(text) }) { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func theScreenWaitsVisiblyStaysResponsiveAndSavesOnceTheLockIsFree() throws {
        let story = try StoryStore(settleTime: 0.05)
        let before = try story.bytes()
        let lock = try HeldLock(story.store.path)
        story.send(.character("p"), .character("y"))
        #expect(story.session.state.jobs.count == 1, "the save is running, not done")
        #expect(Self.waitFor("saving the change to `account_add_funds`: waiting for another writer's lock, ", story))
        let status = story.screen()[28]
        #expect(status.contains(" s of 10 s"), "\(status)")
        #expect(story.screen()[29].hasPrefix(" Esc give up "))

        story.send(.character("?"))
        #expect(story.screen().contains { $0.contains("While a job runs") })
        if !story.screen().contains(where: { $0.contains("give up a save waiting for a lock, or a log read") }) {
            story.send(.character("j"))
        }
        #expect(story.screen().contains { $0.contains("give up a save waiting for a lock, or a log read") }, "\(story.screen().joined(separator: "\n"))")
        story.send(.escape)
        #expect(!story.session.state.showsHelp)
        #expect(story.session.state.jobs.count == 1, "Esc closed the help, it did not give up")
        story.send(.character("j"))
        #expect(story.session.state.list.selectedKey == "app_color_scheme", "navigation works while the save waits")
        story.send(.character("p"), .character("y"))
        #expect(story.session.state.message == .error("still saving the change to `account_add_funds`; wait for it, or press Esc to give up"))
        #expect(story.screen()[28].hasPrefix(" still saving the change to `account_add_funds`; wait for it, or press Esc to give up · saving"))
        #expect(story.session.state.jobs.count == 1)
        #expect(try story.bytes() == before)

        lock.release()
        #expect(story.session.waitForJobs(seconds: 5))
        #expect(try story.saved().experiments["account_add_funds"]?.status == .paused)
        #expect(story.session.state.snapshot == (try story.saved()))
        #expect(story.screen()[28].hasPrefix(" paused `account_add_funds`"))
        #expect(story.session.state.list.selectedKey == "app_color_scheme")
    }

    @Test func escGivesUpBeforeTheLockIsTakenAndNothingIsSaved() throws {
        let story = try StoryStore(settleTime: 0.05)
        let before = try story.bytes()
        let lock = try HeldLock(story.store.path)
        story.send(.character("p"))
        let confirmation = story.session.state.overlay
        story.send(.character("y"))
        #expect(Self.waitFor("waiting for another writer's lock", story))
        story.send(.escape)
        #expect(story.session.state.jobs.first?.isGivingUp == true)
        #expect(story.session.waitForJobs(seconds: 5))
        #expect(story.session.state.message == .info("gave up: stopped saving the change to `account_add_funds` before it changed anything"))
        #expect(story.session.state.overlay == confirmation, "back at the question that was answered")
        lock.release()
        story.session.tick()
        #expect(try story.bytes() == before)
        story.send(.character("n"))
        #expect(story.session.state.overlay == nil)
        #expect(try story.bytes() == before)
    }

    @Test func aLockHeldPastTheTimeoutFailsWithTheStoreMessage() throws {
        let story = try StoryStore(settleTime: 0.05, lockTimeout: 0.3)
        let before = try story.bytes()
        let lock = try HeldLock(story.store.path)
        story.send(.character("p"), .character("y"))
        #expect(story.session.waitForJobs(seconds: 5))
        let message = try #require(story.session.state.message)
        #expect(message.isError)
        #expect(message.text.hasPrefix("another process has held the lock on \(story.store.path) for over 0.3 s"))
        #expect(story.session.state.overlay.map { if case .confirm = $0 { true } else { false } } == true, "the question is asked again")
        lock.release()
        #expect(try story.bytes() == before)
    }
}
