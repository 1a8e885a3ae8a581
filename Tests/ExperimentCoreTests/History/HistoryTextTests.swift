import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// `HistoryText`: every action's before/after words formatted and read back as the same value, and the texts
/// the changes write read back to themselves.
struct HistoryTextTests {
    /// A random valid name: a lower-case letter or digit, then up to 11 of `a-z0-9_.-`.
    static func name(_ random: inout SplitMix64) -> String {
        let first = Array("abcdefghijklmnopqrstuvwxyz0123456789"), rest = first + Array("_.-")
        var text = String(first[Int(random.next() % UInt64(first.count))])
        for _ in 0..<Int(random.next() % 12) { text.append(rest[Int(random.next() % UInt64(rest.count))]) }
        return text
    }

    static func weights(_ random: inout SplitMix64) -> [NamedWeight] {
        (0..<Int(1 + random.next() % 5)).map { _ in NamedWeight(name: name(&random), weight: Weight(buckets: Int(random.next() % 10_001))) }
    }

    static func status(_ random: inout SplitMix64) -> ExperimentStatus {
        ExperimentStatus.allCases[Int(random.next() % UInt64(ExperimentStatus.allCases.count))]
    }

    /// Random free text, spaces, parentheses, `=` and non-ASCII included.
    static func text(_ random: inout SplitMix64) -> String {
        let alphabet = Array("ab =,()\"\\é→ 0.5%")
        return String((0..<Int(random.next() % 24)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }

    /// A random value of the kind `action` writes on `side`.
    static func value(_ action: HistoryAction, _ side: HistorySide, _ random: inout SplitMix64) -> HistoryValue {
        switch (action, side) {
        case (.start, _), (.pause, _): .status(status(&random))
        case (.ramp, _), (.addVariant, .after): .weights(weights(&random))
        case (.create, .after), (.delete, .before), (.resolve, .before): .statusWeights(status(&random), weights(&random))
        case (.resolve, .after): .resolved(winner: name(&random), forcedPast: random.next() % 2 == 0 ? nil : text(&random))
        default: .text(text(&random))
        }
    }

    @Test func everyActionRoundTripsRandomValues() {
        var random = SplitMix64(seed: 20)
        for _ in 0..<300 {
            for action in HistoryAction.allCases {
                for side in [HistorySide.before, .after] {
                    let value = Self.value(action, side, &random)
                    let text = HistoryText.format(value)
                    #expect(HistoryText.parse(text, action: action, side: side) == value, "\(action) \(side): \(text)")
                }
            }
        }
    }

    /// The texts the changes write are the codec's: each reads back and formats to the same bytes.
    @Test func theChangesTextsReadBackToThemselves() throws {
        var snapshot = StoreSnapshot()
        let context = ChangeContext(operatorName: "alice", now: Date(timeIntervalSince1970: 1_772_359_200))
        let changes: [Change] = [
            .create(ExperimentDraft(key: "checkout", type: .user, variants: [("control", Weight(buckets: 5000)), ("treat", Weight(buckets: 1250))])),
            .create(ExperimentDraft(key: "gone", type: .user, variants: [("a", Weight(buckets: 10_000))])),
            .delete(experiment: "gone"),
            .start(experiment: "checkout"), .pause(experiment: "checkout"), .start(experiment: "checkout"),
            .ramp(experiment: "checkout", weights: ["treat": Weight(buckets: 5000)]),
            .addVariant(experiment: "checkout", name: "blue", payload: nil),
            .resolve(experiment: "checkout", winner: "treat", forced: "SRM (p = 0.0001); chance to win 80 %"),
        ]
        for change in changes { _ = try snapshot.apply(change, context: context) }
        #expect(snapshot.history.count == changes.count)
        for entry in snapshot.history {
            for side in [HistorySide.before, .after] {
                let text = side == .before ? entry.before : entry.after
                let value = try HistoryText.value(of: entry, side)
                #expect(value.map(HistoryText.format) == text, "\(entry.action) \(side)")
                if let value, case .text = value { Issue.record("\(entry.action) \(side) read as free text") }
            }
        }
        #expect(snapshot.history.last?.after == "resolved winner=treat (forced past: SRM (p = 0.0001); chance to win 80 %)")
        #expect(snapshot.history.last?.before == "running control=50,treat=50,blue=0")
    }

    @Test func anUnreadableTextIsAnErrorNamingTheEntry() {
        let entry = HistoryEntry(at: Date(timeIntervalSince1970: 1_772_359_200), operatorName: "maria.pm", experiment: "checkout",
                                 action: .ramp, before: "control=50,treat=50", after: "control=fifty,treat=50")
        #expect(throws: HistoryTextError(message: "the history entry `ramp` of `checkout` by maria.pm at 2026-03-01 10:00:00 UTC: its after text "
                                                  + "does not read as weights (name=percent,…): \"control=fifty,treat=50\"")) {
            try HistoryText.value(of: entry, .after)
        }
        for bad in ["", "control", "control=50,", "=50", "Control=50", "a=50=1", "a=100.001", "a=101"] {
            #expect(HistoryText.parse(bad, action: .ramp, side: .before) == nil, "\(bad)")
        }
        #expect(HistoryText.parse("running", action: .create, side: .after) == nil)
        #expect(HistoryText.parse("resolved winner=a (forced past: x", action: .resolve, side: .after) == nil)
        #expect(HistoryText.parse("started", action: .start, side: .after) == nil)
    }
}
