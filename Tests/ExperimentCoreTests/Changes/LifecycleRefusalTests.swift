import Testing
@testable import ExperimentCore

/// `Experiment.lifecycleRefusal(to:)`: nil where the lifecycle allows the move, else words naming the way forward.
struct LifecycleRefusalTests {
    static let key = "checkout"

    func experiment(_ status: ExperimentStatus) throws -> Experiment {
        try #require(try Fixture.snapshot(status: status).experiments[Self.key])
    }

    @Test(arguments: ExperimentStatus.allCases)
    func noRefusalExactlyWhereTheLifecycleAllows(from: ExperimentStatus) throws {
        let experiment = try experiment(from)
        for next in ExperimentStatus.allCases {
            #expect((experiment.lifecycleRefusal(to: next) == nil) == from.canMove(to: next), "\(from) → \(next)")
        }
    }

    @Test func refusalsNameTheWayForward() throws {
        #expect(try experiment(.draft).lifecycleRefusal(to: .resolved) == "`checkout` is a draft: start it before resolving")
        #expect(try experiment(.draft).lifecycleRefusal(to: .paused) == "`checkout` is a draft: start it before pausing (a draft serves no one)")
        #expect(try experiment(.running).lifecycleRefusal(to: .running) == "`checkout` is already running")
        #expect(try experiment(.paused).lifecycleRefusal(to: .paused) == "`checkout` is already paused")
        #expect(try experiment(.resolved).lifecycleRefusal(to: .resolved) == "experiment `checkout` is resolved; its winner can no longer change")
        #expect(try experiment(.resolved).lifecycleRefusal(to: .running) == "experiment `checkout` is resolved; its status can no longer change")
        #expect(try experiment(.running).lifecycleRefusal(to: .draft)
            == ExperimentError.forbiddenTransition(experiment: "checkout", from: .running, to: .draft).message)
    }
}
