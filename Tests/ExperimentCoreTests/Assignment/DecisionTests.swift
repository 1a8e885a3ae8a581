import ExperimentTestSupport
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// The SPEC §4 decision table, row by row, and the client's `assign` answer.
struct DecisionTests {
    /// `account_add_funds` buckets `user-1` at 6471 and `user-42` at 1165 (SPEC §2 vectors).
    static let key = "account_add_funds"

    static func index(_ status: ExperimentStatus, type: SubjectType = .user,
                      whitelist: [(String, String)] = [], variants: [(String, String)] = [("control", "50"), ("treatment", "50")],
                      key: String = key) throws -> AssignmentIndex {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(Fixture.draft(key, type: type, variants)), context: Fixture.alice)
        for (subject, variant) in whitelist {
            try snapshot.apply(.whitelistAdd(experiment: key, subject: subject, variant: variant, note: ""), context: Fixture.alice)
        }
        if status != .draft { try snapshot.apply(.start(experiment: key), context: Fixture.alice) }
        if status == .paused { try snapshot.apply(.pause(experiment: key), context: Fixture.alice) }
        if status == .resolved { try snapshot.apply(.resolve(experiment: key, winner: "treatment"), context: Fixture.alice) }
        return AssignmentIndex(snapshot)
    }

    static func decision(_ subject: String?, _ bucket: Int?, _ variant: String, _ reason: DecisionReason,
                         type: SubjectType = .user, key: String = key) -> Decision {
        Decision(experiment: key, type: type, subject: subject, bucket: bucket, variant: variant, reason: reason)
    }

    // MARK: Rows 1–7

    @Test func row1ResolvedServesTheWinnerToEveryone() throws {
        let index = try Self.index(.resolved, whitelist: [("user-42", "control")])
        #expect(index.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "treatment", .resolved))
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "treatment", .resolved))
        #expect(index.decide(Self.key, for: Subject()) == Self.decision(nil, nil, "treatment", .resolved))
    }

    @Test func row2PausedServesControlEvenWhenWhitelisted() throws {
        let index = try Self.index(.paused, whitelist: [("user-42", "treatment")])
        #expect(index.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "control", .paused))
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "control", .paused))
        #expect(index.decide(Self.key, for: Subject(deviceID: "d")) == Self.decision(nil, nil, "control", .paused))
    }

    @Test func row3MissingSubjectOfTheExperimentsTypeServesControl() throws {
        let device = try Self.index(.running, type: .device, whitelist: [("user-1", "treatment")], key: "app_color_scheme")
        // A device experiment asked with only a user id, even one whitelisted as a device id.
        #expect(device.decide("app_color_scheme", for: Subject(userID: "user-1"))
            == Self.decision(nil, nil, "control", .noSubject, type: .device, key: "app_color_scheme"))
        #expect(device.decide("app_color_scheme", for: Subject(userID: "device-7f3a", deviceID: "device-7f3a"))
            == Self.decision("device-7f3a", 2440, "control", .bucketed, type: .device, key: "app_color_scheme"))
        let user = try Self.index(.running)
        #expect(user.decide(Self.key, for: Subject(deviceID: "user-1")) == Self.decision(nil, nil, "control", .noSubject))
        let draft = try Self.index(.draft)
        #expect(draft.decide(Self.key, for: Subject()) == Self.decision(nil, nil, "control", .noSubject))
    }

    @Test(arguments: [ExperimentStatus.draft, .running])
    func row4WhitelistedSubjectGetsItsVariant(status: ExperimentStatus) throws {
        // user-1 buckets into treatment; whitelisting it into control must win over the bucket.
        let index = try Self.index(status, whitelist: [("user-1", "control"), ("user-42", "treatment")])
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "control", .whitelisted))
        #expect(index.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "treatment", .whitelisted))
    }

    @Test func row4WhitelistMatchesSubjectBytesExactly() throws {
        // "é" precomposed and "e" + combining accent are equal Strings but different subjects.
        let index = try Self.index(.running, whitelist: [("h\u{E9}llo", "treatment")])
        let decomposed = "he\u{301}llo"
        let bucket = Bucketer.bucket(salt: Self.key, subject: decomposed)
        let expected = bucket < 5000 ? "control" : "treatment"
        #expect(index.decide(Self.key, for: Subject(userID: decomposed)) == Self.decision(decomposed, bucket, expected, .bucketed))
        #expect(index.decide(Self.key, for: Subject(userID: "h\u{E9}llo"))?.reason == .whitelisted)
    }

    @Test func row5DraftServesControlToEveryoneNotWhitelisted() throws {
        let index = try Self.index(.draft, whitelist: [("user-42", "treatment")])
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "control", .draft))
        #expect(index.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "treatment", .whitelisted))
    }

    @Test func row6BucketedByTheRangesOwner() throws {
        let index = try Self.index(.running)
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "treatment", .bucketed))
        #expect(index.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "control", .bucketed))
    }

    @Test func row7UnallocatedBucketServesControlNotEnrolled() throws {
        // 10 % control, 0 % treatment: buckets 1000..<10000 belong to nobody. user-1 is at 6471.
        let index = try Self.index(.running, variants: [("control", "10"), ("treatment", "0")])
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "control", .notEnrolled))
        let everyoneOut = try Self.index(.running, variants: [("control", "0"), ("treatment", "0")])
        #expect(everyoneOut.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "control", .notEnrolled))
    }

    @Test func controlNeedNotBeTheFirstVariant() throws {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(Fixture.draft(Self.key, [("a", "50"), ("b", "0")], control: "b")), context: Fixture.alice)
        try snapshot.apply(.start(experiment: Self.key), context: Fixture.alice)
        let index = AssignmentIndex(snapshot)
        #expect(index.decide(Self.key, for: Subject(userID: "user-1")) == Self.decision("user-1", 6471, "b", .notEnrolled))
        #expect(index.decide(Self.key, for: Subject(userID: "user-42")) == Self.decision("user-42", 1165, "a", .bucketed))
    }

    // MARK: Buckets and owners over many subjects, checked independently

    @Test func everyDecisionMatchesBucketerAndRangesAfterARamp() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running,
                                            variants: [("control", "20"), ("treatment", "30"), ("other", "25")])
        try snapshot.apply(.ramp(experiment: Self.key, weights: ["control": Fixture.w("5"), "other": Fixture.w("40.5")]),
                           context: Fixture.bob)
        let experiment = try #require(snapshot.experiments[Self.key])
        var owner = [String?](repeating: nil, count: Weight.bucketCount)
        for variant in experiment.variants {
            for range in variant.ranges { for bucket in range.start..<range.end { owner[bucket] = variant.name } }
        }
        let index = AssignmentIndex(snapshot)
        var reasons: [DecisionReason: Int] = [:]
        for number in 0..<3000 {
            let id = "user-\(number)"
            let bucket = Bucketer.bucket(salt: Self.key, subject: id)
            let expected = owner[bucket].map { Self.decision(id, bucket, $0, .bucketed) } ?? Self.decision(id, bucket, "control", .notEnrolled)
            let actual = index.decide(Self.key, for: Subject(userID: id, deviceID: "ignored"))
            guard actual == expected else {
                Issue.record("\(id): \(String(describing: actual)) ≠ \(expected)")
                return
            }
            reasons[expected.reason, default: 0] += 1
        }
        #expect(reasons[.bucketed, default: 0] > 0)
        #expect(reasons[.notEnrolled, default: 0] > 0)
    }

    @Test func bucketUsesTheStoredSaltNotTheKey() throws {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(Fixture.draft("renamed", [("control", "50"), ("treatment", "50")], salt: Self.key)),
                           context: Fixture.alice)
        try snapshot.apply(.start(experiment: "renamed"), context: Fixture.alice)
        #expect(AssignmentIndex(snapshot).decide("renamed", for: Subject(userID: "user-1"))
            == Self.decision("user-1", 6471, "treatment", .bucketed, key: "renamed"))
    }

    @Test func resaltRebucketsEveryone() throws {
        var snapshot = try Fixture.snapshot("renamed", status: .running)
        try snapshot.apply(.resalt(experiment: "renamed", salt: Self.key), context: Fixture.bob)
        #expect(AssignmentIndex(snapshot).decide("renamed", for: Subject(userID: "user-42"))
            == Self.decision("user-42", 1165, "control", .bucketed, key: "renamed"))
    }

    // MARK: Assign

    @Test func assignAnswersKnownKeysAndListsUnknownOnesOnceInOrder() throws {
        var snapshot = try Fixture.snapshot(Self.key, status: .running)
        try snapshot.apply(.create(Fixture.draft("app_color_scheme", type: .device, [("blue", "100")])), context: Fixture.alice)
        try snapshot.apply(.create(Fixture.draft("old_banner", [("off", "50"), ("on", "50")])), context: Fixture.alice)
        try snapshot.apply(.start(experiment: "old_banner"), context: Fixture.alice)
        try snapshot.apply(.resolve(experiment: "old_banner", winner: "on"), context: Fixture.alice)
        let index = AssignmentIndex(snapshot)
        let answer = index.assign(["zeta", Self.key, "nope", "app_color_scheme", "zeta", "old_banner"],
                                  to: Subject(userID: "user-1"))
        #expect(answer == Assignment(variants: [Self.key: "treatment", "app_color_scheme": "blue", "old_banner": "on"],
                                     unknown: ["zeta", "nope"]))
        #expect(index.decide("nope", for: Subject(userID: "user-1")) == nil)
        #expect(index.assign([], to: Subject()) == Assignment(variants: [:], unknown: []))
    }
}
