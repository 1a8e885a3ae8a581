import ExperimentCore
@testable import ExperimentResults
import Foundation
import Testing

/// `ResultsWindow.resolve` reads a past phase's weights back from the history through `HistoryText`, and
/// refuses a text that does not read (never falling back to today's weights).
struct ResultsWindowHistoryTests {
    static let experiment = ResultsFixture.experiment()
    static func date(hours: Double) -> Date { Date(timeIntervalSince1970: 1_767_225_600 + hours * 3600) }

    static func history(firstRamp: String) -> [HistoryEntry] {
        [HistoryEntry(at: date(hours: 0), operatorName: "t", experiment: "checkout", action: .create, before: nil, after: "draft control=50,green=50"),
         HistoryEntry(at: date(hours: 1), operatorName: "t", experiment: "checkout", action: .start, before: "draft", after: "running"),
         HistoryEntry(at: date(hours: 2), operatorName: "maria.pm", experiment: "checkout", action: .ramp,
                      before: "control=50,green=50", after: firstRamp),
         HistoryEntry(at: date(hours: 4), operatorName: "t", experiment: "checkout", action: .ramp,
                      before: "control=90,green=10", after: "control=50,green=50")]
    }

    @Test func aPastPhaseHasTheWeightsItsRampWrote() throws {
        let window = try ResultsWindow.resolve(Self.experiment, history: Self.history(firstRamp: "control=90,green=10"),
                                               now: Self.date(hours: 10), from: ResultsFixture.at(hours: 3))
        #expect(window.weights == ["control": 9000, "green": 1000])
        #expect(window.weightsChangedInside)
    }

    @Test func anUnreadableRampTextIsAnErrorNamingTheEntry() {
        do {
            _ = try ResultsWindow.resolve(Self.experiment, history: Self.history(firstRamp: "control=ninety,green=10"),
                                          now: Self.date(hours: 10), from: ResultsFixture.at(hours: 3))
            Issue.record("an unreadable ramp text was read")
        } catch {
            #expect(error.message == "the history entry `ramp` of `checkout` by maria.pm at 2026-01-01 02:00:00 UTC: its "
                                   + "after text does not read as weights (name=percent,…): \"control=ninety,green=10\"")
        }
    }
}
