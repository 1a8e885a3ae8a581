import ExperimentCore
import ExperimentResults
import Testing
@testable import ConsoleUI

/// The pure update of the results screen: effects as values, stale answers dropped, Esc cancels.
@Suite struct ResultsUpdateTests {
    static func state() throws -> AppState {
        let story = try StoryStore()
        return story.session.state
    }

    static func analysis(_ key: String = "account_add_funds") -> Analysis {
        let window = ResultsWindow(from: 0, to: 1, weights: ["control": 5000, "account_view": 5000], weightsChangedInside: false)
        let totals = [VariantTotals(subjects: 100, sum: 10, sumSquares: 10), VariantTotals(subjects: 100, sum: 20, sumSquares: 20)]
        return Analysis(experiment: key, variants: ["control", "account_view"], control: "control", window: window,
                        subjects: SubjectCounts(exposed: 200, analysed: 200, multipleVariants: 0, whitelisted: 0, unknownVariantRows: 0),
                        variantSubjects: [100, 100], metrics: [MetricTotals(name: "buy", type: .proportion, variants: totals)])
    }

    @Test func eAsksForABackgroundLoadAndEscCancelsIt() throws {
        var state = try Self.state()
        let effects = ConsoleUpdate.update(&state, .key(.character("e")))
        #expect(effects == [.loadResults(requestID: 1, experiment: "account_add_funds")])
        #expect(state.results == ResultsState(experimentKey: "account_add_funds", requestID: 1))
        _ = ConsoleUpdate.update(&state, .resultsProgress(requestID: 1, rows: 5000, elapsed: 0.25))
        #expect(state.results?.phase == .loading(rows: 5000, elapsed: 0.25))
        #expect(ConsoleUpdate.update(&state, .key(.escape)) == [.cancelResults(requestID: 1)])
        #expect(state.results?.phase == .cancelled(rows: 5000))
        #expect(state.stack == [.results(key: "account_add_funds")])
        _ = ConsoleUpdate.update(&state, .resultsFailed(requestID: 1, message: "cancelled"))
        #expect(state.results?.phase == .cancelled(rows: 5000))
        #expect(ConsoleUpdate.update(&state, .key(.enter)) == [.loadResults(requestID: 2, experiment: "account_add_funds")])
        _ = ConsoleUpdate.update(&state, .resultsLoaded(requestID: 1, Self.analysis()))
        #expect(state.results?.isLoading == true, "a stale answer is dropped")
        _ = ConsoleUpdate.update(&state, .resultsLoaded(requestID: 2, Self.analysis()))
        #expect(state.results?.report?.metrics.first?.variants.last?.chanceToWin != nil)
        #expect(ConsoleUpdate.update(&state, .key(.escape)) == [])
        #expect(state.stack.isEmpty)
    }

    @Test func engineKeysRecomputeWithoutReading() throws {
        var state = try Self.state()
        _ = ConsoleUpdate.update(&state, .key(.character("e")))
        _ = ConsoleUpdate.update(&state, .resultsLoaded(requestID: 1, Self.analysis()))
        #expect(ConsoleUpdate.update(&state, .key(.character("f"))) == [])
        let variant = try #require(state.results?.report?.metrics.first?.variants.last)
        #expect(variant.chanceToWin == nil && variant.pValue != nil)
        #expect(ConsoleUpdate.update(&state, .key(.character("b"))) == [])
        #expect(state.results?.report?.metrics.first?.variants.last?.chanceToWin != nil)
        #expect(ConsoleUpdate.update(&state, .key(.escape)) == [])
        #expect(ConsoleUpdate.update(&state, .key(.character("e"))) == [], "loaded results are kept")
    }
}
