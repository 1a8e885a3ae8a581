import ExperimentCore
import ExperimentResults
import Foundation
import Testing
@testable import ConsoleUI

/// The pure update of the results screen: effects as values, stale answers dropped, Esc cancels.
@Suite struct ResultsUpdateTests {
    static func state() throws -> AppState {
        let story = try StoryStore()
        return story.session.state
    }

    static func analysis(_ key: String = "account_add_funds") throws -> Analysis {
        let window = ResultsWindow(from: 0, to: 1, weights: ["control": 5000, "account_view": 5000], weightsChangedInside: false)
        let totals = [VariantTotals(statistics: try .proportion(subjects: 100, conversions: 10)),
                      VariantTotals(statistics: try .proportion(subjects: 100, conversions: 20))]
        return Analysis(experiment: key, variants: ["control", "account_view"], control: "control", window: window,
                        subjects: SubjectCounts(exposed: 200, analysed: 200, multipleVariants: 0, whitelisted: 0, unknownVariantRows: 0),
                        variantSubjects: [100, 100], metrics: [MetricTotals(name: "buy", type: .proportion, variants: totals)])
    }

    @Test func eStartsAReadJobAndEscGivesItUp() throws {
        var state = try Self.state()
        let first = JobID(state.nextJobID)
        let effects = ConsoleUpdate.update(&state, .key(.character("e")), now: Date(timeIntervalSince1970: 0))
        #expect(effects == [.start(first, .readResults(experiment: "account_add_funds"))])
        #expect(state.results == ResultsState(experimentKey: "account_add_funds", job: first))
        #expect(state.jobs == [Job(id: first, work: .readResults(experiment: "account_add_funds"), title: "reading the event logs of `account_add_funds`")])
        _ = ConsoleUpdate.update(&state, .jobProgress(first, .read(rows: 5000, elapsed: 0.25)), now: Date(timeIntervalSince1970: 0))
        #expect(state.results?.phase == .loading(rows: 5000, elapsed: 0.25))
        #expect(state.jobs.first?.progress == .read(rows: 5000, elapsed: 0.25))
        #expect(ConsoleUpdate.update(&state, .key(.escape), now: Date(timeIntervalSince1970: 0)) == [.cancel(first)])
        #expect(state.results?.phase == .cancelled(rows: 5000))
        #expect(state.jobs.first?.isGivingUp == true)
        #expect(state.message == .info("loading cancelled; Enter reads the logs again"))
        #expect(state.stack == [.results(key: "account_add_funds")])
        _ = ConsoleUpdate.update(&state, .jobFinished(first, .cancelled), now: Date(timeIntervalSince1970: 0))
        #expect(state.results?.phase == .cancelled(rows: 5000))
        #expect(state.jobs.isEmpty)
        #expect(state.message == .info("loading cancelled; Enter reads the logs again"))
        let second = JobID(first.value + 1)
        #expect(ConsoleUpdate.update(&state, .key(.enter), now: Date(timeIntervalSince1970: 0)) == [.start(second, .readResults(experiment: "account_add_funds"))])
        _ = ConsoleUpdate.update(&state, .jobFinished(first, .resultsRead(try Self.analysis())), now: Date(timeIntervalSince1970: 0))
        #expect(state.results?.isLoading == true, "a stale answer is dropped")
        _ = ConsoleUpdate.update(&state, .jobFinished(second, .resultsRead(try Self.analysis())), now: Date(timeIntervalSince1970: 0))
        #expect(state.jobs.isEmpty)
        #expect(state.results?.report?.metrics.first?.variants.last?.chanceToWin != nil)
        #expect(ConsoleUpdate.update(&state, .key(.escape), now: Date(timeIntervalSince1970: 0)) == [])
        #expect(state.stack.isEmpty)
    }

    @Test func readingAgainStopsTheOlderReadAndQuittingTheScreenStopsTheRead() throws {
        var state = try Self.state()
        let first = JobID(state.nextJobID), second = JobID(first.value + 1)
        _ = ConsoleUpdate.update(&state, .key(.character("e")), now: Date(timeIntervalSince1970: 0))
        #expect(ConsoleUpdate.update(&state, .key(.enter), now: Date(timeIntervalSince1970: 0)) == [.cancel(first), .start(second, .readResults(experiment: "account_add_funds"))])
        #expect(state.jobs.map(\.isGivingUp) == [true, false])
        #expect(state.results == ResultsState(experimentKey: "account_add_funds", job: second))
        _ = ConsoleUpdate.update(&state, .jobFinished(first, .cancelled), now: Date(timeIntervalSince1970: 0))
        #expect(state.results == ResultsState(experimentKey: "account_add_funds", job: second), "the older read's end changes nothing")
        #expect(state.message == nil)
        _ = ConsoleUpdate.update(&state, .jobProgress(second, .read(rows: 70, elapsed: 0.1)), now: Date(timeIntervalSince1970: 0))
        #expect(ConsoleUpdate.update(&state, .key(.character("q")), now: Date(timeIntervalSince1970: 0)) == [.cancel(second)])
        #expect(state.stack.isEmpty)
        #expect(state.results?.phase == .cancelled(rows: 70))
        #expect(state.message == nil, "the list does not say Enter reads the logs")
        _ = ConsoleUpdate.update(&state, .jobFinished(second, .resultsFailed(message: "cancelled")), now: Date(timeIntervalSince1970: 0))
        #expect(state.results?.phase == .cancelled(rows: 70))
        #expect(state.jobs.isEmpty)
    }

    @Test func aFailedReadSaysWhy() throws {
        var state = try Self.state()
        let first = JobID(state.nextJobID)
        _ = ConsoleUpdate.update(&state, .key(.character("e")), now: Date(timeIntervalSince1970: 0))
        _ = ConsoleUpdate.update(&state, .jobFinished(first, .resultsFailed(message: "no such file")), now: Date(timeIntervalSince1970: 0))
        #expect(state.results == ResultsState(experimentKey: "account_add_funds", job: first, phase: .failed("no such file")))
        #expect(state.jobs.isEmpty)
        #expect(state.message == nil)
    }

    @Test func engineKeysRecomputeWithoutReading() throws {
        var state = try Self.state()
        let first = JobID(state.nextJobID)
        _ = ConsoleUpdate.update(&state, .key(.character("e")), now: Date(timeIntervalSince1970: 0))
        _ = ConsoleUpdate.update(&state, .jobFinished(first, .resultsRead(try Self.analysis())), now: Date(timeIntervalSince1970: 0))
        #expect(ConsoleUpdate.update(&state, .key(.character("f")), now: Date(timeIntervalSince1970: 0)) == [])
        let variant = try #require(state.results?.report?.metrics.first?.variants.last)
        #expect(variant.chanceToWin == nil && variant.pValue != nil)
        #expect(ConsoleUpdate.update(&state, .key(.character("b")), now: Date(timeIntervalSince1970: 0)) == [])
        #expect(state.results?.report?.metrics.first?.variants.last?.chanceToWin != nil)
        #expect(ConsoleUpdate.update(&state, .key(.escape), now: Date(timeIntervalSince1970: 0)) == [])
        #expect(ConsoleUpdate.update(&state, .key(.character("e")), now: Date(timeIntervalSince1970: 0)) == [], "loaded results are kept")
        #expect(state.jobs.isEmpty)
    }
}
