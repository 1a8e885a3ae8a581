import ExperimentTestSupport
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// `Experiment.refusal(for:)`: what each status forbids, in words naming the way forward.
struct RefusalRuleTests {
    static let key = "checkout"

    func experiment(_ status: ExperimentStatus) throws -> Experiment {
        try #require(try Fixture.snapshot(status: status).experiments[Self.key])
    }

    /// The change that moves an experiment to `next`.
    static func move(to next: ExperimentStatus) -> ExperimentChange? {
        switch next {
        case .running: .start
        case .paused: .pause
        case .resolved: .resolve(winner: "control")
        case .draft: nil
        }
    }

    @Test(arguments: ExperimentStatus.allCases)
    func aMoveIsRefusedExactlyWhereTheLifecycleForbidsIt(from: ExperimentStatus) throws {
        let experiment = try experiment(from)
        for next in ExperimentStatus.allCases {
            guard let change = Self.move(to: next) else { continue }
            // A move to the status it has is not refused but already done, except a resolve of a resolved experiment.
            let already = from == next && from != .resolved
            #expect((experiment.refusal(for: change) == nil) == (from.canMove(to: next) || already), "\(from) → \(next)")
            #expect((experiment.alreadyDone(change) != nil) == already, "\(from) → \(next)")
        }
    }

    @Test func refusalsNameTheWayForward() throws {
        #expect(try experiment(.draft).refusalText(for: .resolve(winner: "control")) == "`checkout` is a draft: start it before resolving")
        #expect(try experiment(.draft).refusalText(for: .pause) == "`checkout` is a draft: start it before pausing (a draft serves no one)")
        #expect(try experiment(.running).refusalText(for: .start) == "`checkout` is already running")
        #expect(try experiment(.paused).refusalText(for: .pause) == "`checkout` is already paused")
        #expect(try experiment(.resolved).refusalText(for: .resolve(winner: "control")) == "experiment `checkout` is resolved; its winner can no longer change")
        #expect(try experiment(.resolved).refusalText(for: .start) == "experiment `checkout` is resolved; its status can no longer change")
        #expect(try experiment(.resolved).refusalText(for: .ramp(weights: [:])) == "experiment `checkout` is resolved; its weights can no longer change")
        #expect(try experiment(.resolved).refusalText(for: .setDescription("x")) == nil, "a description serves nobody")
    }
}
