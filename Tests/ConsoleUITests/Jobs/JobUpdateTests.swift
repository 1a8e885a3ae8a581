import ExperimentCore
import ExperimentEditing
import Foundation
import Testing
@testable import ConsoleUI

/// Jobs through the pure update, compared as whole states: start, progress, give up, outcomes.
@Suite("Jobs: update")
struct JobUpdateTests {
    typealias F = ScreenFixtures
    /// The time the update stamps logged messages with when the test passes none.
    static let epoch = Date(timeIntervalSince1970: 0)

    /// The fixture state with the pause of `account_add_funds` confirmed, before and after `y`.
    static func confirmedPause() throws -> (before: AppState, after: AppState, effects: [Effect]) {
        var state = try F.state()
        F.send([.character("p")], to: &state)
        let before = state
        let effects = F.send([.character("y")], to: &state)
        return (before, state, effects)
    }

    static func pause(_ state: AppState) throws -> Work {
        let experiment = try #require(state.snapshot.experiments["account_add_funds"])
        return .apply(.pause(experiment: "account_add_funds"), expectedRevision: experiment.revision)
    }

    @Test func yStartsAJobAndClosesTheConfirmationIntoIt() throws {
        let (before, after, effects) = try Self.confirmedPause()
        let work = try Self.pause(before)
        #expect(effects == [.start(JobID(1), work)])
        var expected = before
        expected.overlay = nil
        expected.jobs = [Job(id: JobID(1), work: work, title: "saving the change to `account_add_funds`", returnTo: before.overlay)]
        expected.nextJobID = 2
        #expect(after == expected)
    }

    @Test func progressIsRecordedAndEscGivesUpTheJob() throws {
        var (_, state, _) = try Self.confirmedPause()
        _ = ConsoleUpdate.update(&state, .jobProgress(JobID(1), .waitingForLock(seconds: 3, limit: 10)), now: Date(timeIntervalSince1970: 0))
        var expected = state
        #expect(state.jobs.map(\.progress) == [.waitingForLock(seconds: 3, limit: 10)])
        #expect(F.screen(state)[28].hasPrefix(" saving the change to `account_add_funds`: waiting for another writer's lock, 3 s of 10 s"))
        #expect(F.send([.escape], to: &state) == [.cancel(JobID(1))])
        expected.jobs[0].isGivingUp = true
        #expect(state == expected)
        #expect(F.screen(state)[28].hasPrefix(" giving up: stopping saving the change to `account_add_funds`…"))
        #expect(F.send([.escape], to: &state) == [], "a job is given up once")
    }

    @Test func aCancelledJobReopensTheConfirmation() throws {
        var (before, state, _) = try Self.confirmedPause()
        _ = ConsoleUpdate.update(&state, .jobFinished(JobID(1), .cancelled), now: Date(timeIntervalSince1970: 0))
        var expected = before
        expected.nextJobID = 2
        expected.message = .info("gave up: stopped saving the change to `account_add_funds` before it changed anything")
        expected.log(.info("gave up: stopped saving the change to `account_add_funds` before it changed anything"), at: Self.epoch)
        #expect(state == expected)
    }

    @Test func aSavedJobShowsTheStoreAfterIt() throws {
        var (before, state, _) = try Self.confirmedPause()
        var saved = before.snapshot
        let outcome = try saved.apply(.pause(experiment: "account_add_funds"), context: F.alice)
        _ = ConsoleUpdate.update(&state, .jobFinished(JobID(1), .saved(message: outcome.message, snapshot: saved)), now: Date(timeIntervalSince1970: 0))
        var expected = before
        expected.overlay = nil
        expected.snapshot = saved
        expected.nextJobID = 2
        expected.message = .info(outcome.message)
        expected.log(.info(outcome.message), at: Self.epoch)
        #expect(state == expected)
    }

    @Test func aSecondSaveWaitsForTheFirst() throws {
        var (_, state, _) = try Self.confirmedPause()
        F.send([.character("j"), .character("p")], to: &state)
        let asked = state
        #expect(F.send([.character("y")], to: &state) == [])
        var expected = asked
        expected.message = .error("still saving the change to `account_add_funds`; wait for it, or press Esc to give up")
        expected.log(.error("still saving the change to `account_add_funds`; wait for it, or press Esc to give up"), at: Self.epoch)
        #expect(state == expected, "the second confirmation stays open")
    }

    @Test func aResultForAnUnknownJobChangesNothing() throws {
        var (_, state, _) = try Self.confirmedPause()
        let before = state
        _ = ConsoleUpdate.update(&state, .jobFinished(JobID(7), .cancelled), now: Date(timeIntervalSince1970: 0))
        #expect(state == before)
    }
}
