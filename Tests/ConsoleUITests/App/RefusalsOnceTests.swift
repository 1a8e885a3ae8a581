import ExperimentCore
import ExperimentEditing
import Testing
@testable import ConsoleUI

/// What a status forbids is decided once, by `Experiment.refusal(for:)`: the store's `apply` (whose
/// words the CLI prints) and the console's availability (whose words a key shows) say the same for
/// every change on every status, and neither refuses what the other allows.
@Suite("Refusals: one rule for the store and the console")
struct RefusalsOnceTests {
    static let key = "exp"
    static let context = FormsFixture.alice

    /// A store holding `exp` (50/50, `user-1` whitelisted) in `status`.
    static func snapshot(_ status: ExperimentStatus) throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        var changes: [Change] = [
            .create(ExperimentDraft(key: key, type: .user, variants: [("control", FormsFixture.pct(50)), ("green", FormsFixture.pct(50))])),
            .whitelistAdd(experiment: key, subject: "user-1", variant: "green", note: "QA"),
        ]
        if status != .draft { changes.append(.start(experiment: key)) }
        if status == .paused { changes.append(.pause(experiment: key)) }
        if status == .resolved { changes.append(.resolve(experiment: key, winner: "green")) }
        for change in changes { try snapshot.apply(change, context: context) }
        return snapshot
    }

    /// Every kind of change, with arguments `exp` accepts, and the console key that makes it (nil: none does).
    static let changes: [(change: ExperimentChange, intent: Intent?)] = [
        (.start, .start),
        (.pause, .pause),
        (.resolve(winner: "green"), .resolve),
        (.ramp(weights: ["control": FormsFixture.pct(70), "green": FormsFixture.pct(30)]), .ramp),
        (.addVariant(name: "blue", payload: nil), .addVariant),
        (.setPayload(variant: "green", payload: .bool(true)), .setPayload),
        (.setDescription("Does green lift checkouts?"), .editDescription),
        (.whitelistAdd(subject: "user-2", variant: "control", note: ""), .whitelistAdd),
        (.whitelistNote(subject: "user-1", note: "QA, until May"), .whitelistEditNote),
        (.whitelistRemove(subject: "user-1"), .whitelistRemove),
        (.whitelistImport(rows: [WhitelistRow(line: 1, subject: "user-3", variant: "control", note: "")]), .whitelistImport),
        (.resalt(salt: "exp-2"), nil),
    ]

    @Test(arguments: ExperimentStatus.allCases)
    func theStoreAndTheConsoleGiveTheSameWords(status: ExperimentStatus) throws {
        let fixture = try Self.snapshot(status)
        let experiment = try #require(fixture.experiments[Self.key])
        for (change, intent) in Self.changes {
            // The store's answer, as the CLI gets it: a refusal, "already …" without a write, or applied (nil).
            var snapshot = fixture
            let said: String?
            do {
                let outcome = try snapshot.apply(.edit(experiment: Self.key, change), context: Self.context)
                said = snapshot.revision == fixture.revision ? outcome.message : nil
            } catch {
                said = error.message
            }
            #expect(experiment.refusalText(for: change) == said, "\(status): \(change)")
            if let intent {
                let shown = intent.availability(AvailabilityFacts(readOnly: false, experiment: experiment)).reason
                #expect(shown == said, "\(status): \(change) — the console says \(shown ?? "nothing"), the store \(said ?? "nothing")")
            }
        }
    }

    @Test func aResolvedExperimentRefusesEveryChangeButItsDescription() throws {
        let experiment = try #require(try Self.snapshot(.resolved).experiments[Self.key])
        for (change, _) in Self.changes {
            if case .setDescription = change { #expect(experiment.refusal(for: change) == nil); continue }
            #expect(experiment.refusal(for: change)?.message.hasPrefix("experiment `exp` is resolved; ") == true, "\(change)")
        }
        #expect(experiment.refusalText(for: .start) == "experiment `exp` is resolved; its status can no longer change")
        #expect(experiment.refusalText(for: .resolve(winner: "control")) == "experiment `exp` is resolved; its winner can no longer change")
    }
}
