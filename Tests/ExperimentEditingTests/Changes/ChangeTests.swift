import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// `StoreSnapshot.apply` for every `Change`: the exact result, revisions, history, and every refusal.
struct ChangeTests {
    static let key = "checkout"

    /// Applies `change` to a copy of `snapshot`, expects exactly `error`, and that the copy is unchanged.
    func expectRefused(_ snapshot: StoreSnapshot, _ change: Change, expectedRevision: Int? = nil,
                       context: ChangeContext = Fixture.bob, _ error: ExperimentError,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        var copy = snapshot
        #expect(throws: error, sourceLocation: sourceLocation) {
            try copy.apply(change, expectedRevision: expectedRevision, context: context)
        }
        #expect(copy == snapshot, sourceLocation: sourceLocation)
    }

    func experiment(_ snapshot: StoreSnapshot, _ key: String = key) throws -> Experiment {
        try #require(snapshot.experiments[key])
    }

    static let created = HistoryEntry(at: Fixture.t0, operatorName: "alice", experiment: key, action: .create,
                                      before: nil, after: "draft control=50,treatment=50")

    // MARK: Create

    @Test func createMakesADraftLaidOutFromBucketZero() throws {
        var snapshot = StoreSnapshot()
        let outcome = try snapshot.apply(.create(Fixture.draft(Self.key, [("control", "20"), ("a", "30"), ("b", "50")])),
                                         context: Fixture.alice)
        #expect(outcome == ChangeOutcome(message: "created draft `checkout` (control=20,a=30,b=50)", ramp: nil, revision: 1))
        #expect(snapshot.revision == 1)
        #expect(snapshot.schemaVersion == 1)
        let expected = Experiment(
            key: Self.key, type: .user, status: .draft, salt: Self.key, control: "control", winner: nil, description: "",
            revision: 1, createdAt: Fixture.t0, updatedAt: Fixture.t0, updatedBy: "alice",
            variants: [Variant(name: "control", weight: Weight(buckets: 2000), ranges: [BucketRange(0, 2000)]),
                       Variant(name: "a", weight: Weight(buckets: 3000), ranges: [BucketRange(2000, 5000)]),
                       Variant(name: "b", weight: Weight(buckets: 5000), ranges: [BucketRange(5000, 10_000)])],
            whitelist: [:])
        #expect(snapshot.experiments == [Self.key: expected])
        #expect(snapshot.history == [HistoryEntry(at: Fixture.t0, operatorName: "alice", experiment: Self.key, action: .create,
                                                  before: nil, after: "draft control=20,a=30,b=50")])
    }

    @Test func createKeepsTheGivenControlSaltTypeAndDescription() throws {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(Fixture.draft("app_color_scheme", type: .device, [("blue", "12.5"), ("red", "0")],
                                                 control: "red", salt: "()**(%$##$%#$#", description: "Colour test")),
                           context: Fixture.alice)
        let experiment = try experiment(snapshot, "app_color_scheme")
        #expect(experiment.type == .device)
        #expect(experiment.control == "red")
        #expect(experiment.salt == "()**(%$##$%#$#")
        #expect(experiment.description == "Colour test")
        #expect(experiment.variants == [Variant(name: "blue", weight: Weight(buckets: 1250), ranges: [BucketRange(0, 1250)]),
                                        Variant(name: "red", weight: .zero, ranges: [])])
        #expect(experiment.unallocated == Weight(buckets: 8750))
    }

    @Test func createRefusals() throws {
        let existing = try Fixture.snapshot()
        let longKey = String(repeating: "k", count: 65)
        expectRefused(existing, .create(Fixture.draft(Self.key, [("x", "10")])), .experimentExists(Self.key))
        expectRefused(existing, .create(Fixture.draft("Bad", [("x", "10")])), .invalidKey("Bad"))
        expectRefused(existing, .create(Fixture.draft("", [("x", "10")])), .invalidKey(""))
        expectRefused(existing, .create(Fixture.draft("_x", [("x", "10")])), .invalidKey("_x"))
        expectRefused(existing, .create(Fixture.draft(longKey, [("x", "10")])), .invalidKey(longKey))
        expectRefused(existing, .create(Fixture.draft("new", [])), .noVariants)
        expectRefused(existing, .create(Fixture.draft("new", [("ok", "10"), ("Not ok", "10")])), .invalidVariantName("Not ok"))
        expectRefused(existing, .create(Fixture.draft("new", [("a", "10"), ("a", "10")])), .duplicateVariant("a"))
        expectRefused(existing, .create(Fixture.draft("new", [("a", "50"), ("b", "50.01")])),
                      .weightsOverHundred(experiment: "new", total: Weight(buckets: 10_001)))
        expectRefused(existing, .create(Fixture.draft("new", [("a", "50"), ("b", "50")], control: "c")),
                      .unknownVariant(experiment: "new", variant: "c", known: ["a", "b"]))
        expectRefused(existing, .create(Fixture.draft("new", [("a", "50")], salt: "")), .invalidSalt)
        expectRefused(existing, .create(Fixture.draft("new", [("a", "50")], salt: "tab\there")), .invalidSalt)
        expectRefused(existing, .create(Fixture.draft("new", [("a", "50")], description: String(repeating: "d", count: 10_001))),
                      .textTooLong(field: "description", limit: 10_000))
        expectRefused(existing, .create(Fixture.draft("new", [("a", "50")])), context: ChangeContext(operatorName: "", now: Fixture.t1),
                      .invalidOperator(""))
        expectRefused(existing, .start(experiment: Self.key), context: ChangeContext(operatorName: "a\nb", now: Fixture.t1),
                      .invalidOperator("a\nb"))
    }

    @Test func sixtyFourCharacterKeyIsTheLongestAccepted() throws {
        var snapshot = StoreSnapshot()
        let key = "0" + String(repeating: "a_.-", count: 15) + "abc"
        #expect(key.count == 64)
        try snapshot.apply(.create(Fixture.draft(key, [("a", "100")])), context: Fixture.alice)
        #expect(snapshot.experiments[key]?.key == key)
    }

    // MARK: Lifecycle

    @Test func startMovesADraftToRunning() throws {
        var snapshot = try Fixture.snapshot()
        let outcome = try snapshot.apply(.start(experiment: Self.key), context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "started `checkout`; it now serves control=50,treatment=50", revision: 2))
        let experiment = try experiment(snapshot)
        #expect(experiment.status == .running)
        #expect(experiment.revision == 2)
        #expect(experiment.updatedAt == Fixture.t1)
        #expect(experiment.updatedBy == "bob")
        #expect(experiment.createdAt == Fixture.t0)
        #expect(snapshot.revision == 2)
        #expect(snapshot.history == [Self.created, HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key,
                                                                action: .start, before: "draft", after: "running")])
    }

    @Test func pauseAndResume() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        let paused = try snapshot.apply(.pause(experiment: Self.key), context: Fixture.bob)
        #expect(paused == ChangeOutcome(message: "paused `checkout`; everyone now gets `control` (kill switch)", revision: 3))
        #expect(try experiment(snapshot).status == .paused)
        let resumed = try snapshot.apply(.start(experiment: Self.key), context: Fixture.carol)
        #expect(resumed == ChangeOutcome(message: "resumed `checkout`; it now serves control=50,treatment=50", revision: 4))
        #expect(try experiment(snapshot).status == .running)
        #expect(try experiment(snapshot).updatedBy == "carol")
        #expect(snapshot.revision == 4)
        #expect(snapshot.history.suffix(2) == [
            HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .pause, before: "running", after: "paused"),
            HistoryEntry(at: Fixture.t2, operatorName: "carol", experiment: Self.key, action: .start, before: "paused", after: "running"),
        ])
    }

    @Test(arguments: [ExperimentStatus.running, .paused])
    func resolveSetsTheWinner(from status: ExperimentStatus) throws {
        var snapshot = try Fixture.snapshot(status: status)
        let revision = try experiment(snapshot).revision
        let outcome = try snapshot.apply(.resolve(experiment: Self.key, winner: "treatment"), context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "resolved `checkout`: everyone now gets `treatment`, forever", revision: revision + 1))
        let experiment = try experiment(snapshot)
        #expect(experiment.status == .resolved)
        #expect(experiment.winner == "treatment")
        #expect(experiment.variants.map(\.weight) == [Weight(buckets: 5000), Weight(buckets: 5000)])
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .resolve,
                                                      before: "\(status.rawValue) control=50,treatment=50", after: "resolved winner=treatment"))
    }

    @Test func startOfARunningAndPauseOfAPausedOneSucceedWithoutAChange() throws {
        for (status, change, message) in [(ExperimentStatus.running, Change.start(experiment: Self.key), "`checkout` is already running"),
                                          (.paused, .pause(experiment: Self.key), "`checkout` is already paused")] {
            let before = try Fixture.snapshot(status: status)
            var after = before
            let revision = try experiment(before).revision
            let outcome = try after.apply(change, expectedRevision: revision, context: Fixture.bob)
            #expect(outcome == ChangeOutcome(message: message, ramp: nil, revision: revision))
            #expect(after == before, "no revision, no history entry")
            // A stale view is still refused first: nothing is applied blindly.
            expectRefused(before, change, expectedRevision: revision - 1,
                          .conflict(experiment: Self.key, expected: revision - 1, actual: revision, by: "alice", at: Fixture.t0))
        }
    }

    @Test func forbiddenTransitions() throws {
        let draft = try Fixture.snapshot()
        let running = try Fixture.snapshot(status: .running)
        let resolved = try Fixture.snapshot(status: .resolved)
        expectRefused(resolved, .start(experiment: Self.key), .resolvedIsFrozen(experiment: Self.key, what: "its status"))
        expectRefused(draft, .pause(experiment: Self.key), .forbiddenTransition(experiment: Self.key, from: .draft, to: .paused))
        expectRefused(resolved, .pause(experiment: Self.key), .resolvedIsFrozen(experiment: Self.key, what: "its status"))
        expectRefused(draft, .resolve(experiment: Self.key, winner: "control"),
                      .forbiddenTransition(experiment: Self.key, from: .draft, to: .resolved))
        expectRefused(resolved, .resolve(experiment: Self.key, winner: "control"),
                      .resolvedIsFrozen(experiment: Self.key, what: "its winner"))
        expectRefused(running, .resolve(experiment: Self.key, winner: "nope"),
                      .unknownVariant(experiment: Self.key, variant: "nope", known: ["control", "treatment"]))
        #expect(ExperimentError.forbiddenTransition(experiment: Self.key, from: .draft, to: .paused).message
            == "`checkout` is a draft: start it before pausing (a draft serves no one)")
        #expect(ExperimentError.forbiddenTransition(experiment: Self.key, from: .running, to: .draft).message
            == "experiment `checkout` is running and cannot become draft; the lifecycle is draft → running ⇄ paused, and running or paused → resolved")
    }

    @Test func lifecycleTable() {
        let allowed: Set<[ExperimentStatus]> = [[.draft, .running], [.running, .paused], [.paused, .running],
                                                [.running, .resolved], [.paused, .resolved]]
        for from in ExperimentStatus.allCases {
            for to in ExperimentStatus.allCases {
                #expect(from.canMove(to: to) == allowed.contains([from, to]), "\(from) → \(to)")
            }
        }
    }

    // MARK: Delete

    @Test func deleteRemovesADraft() throws {
        var snapshot = try Fixture.snapshot()
        try snapshot.apply(.create(Fixture.draft("other", [("a", "100")])), context: Fixture.alice)
        let outcome = try snapshot.apply(.delete(experiment: Self.key), context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "deleted draft `checkout`", revision: nil))
        #expect(snapshot.experiments.keys.sorted() == ["other"])
        #expect(snapshot.revision == 3)
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .delete,
                                                      before: "draft control=50,treatment=50", after: nil))
    }

    @Test(arguments: [ExperimentStatus.running, .paused, .resolved])
    func deleteRefusesAServedExperiment(status: ExperimentStatus) throws {
        expectRefused(try Fixture.snapshot(status: status), .delete(experiment: Self.key),
                      .deleteServed(experiment: Self.key, status: status))
    }

    // MARK: Ramp

    @Test func rampMovesTheFewestBucketsAndRecordsWeights() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        let outcome = try snapshot.apply(.ramp(experiment: Self.key, weights: ["control": Fixture.w("70"), "treatment": Fixture.w("30")]),
                                         context: Fixture.bob)
        let variants = [Variant(name: "control", weight: Weight(buckets: 7000), ranges: [BucketRange(0, 5000), BucketRange(8000, 10_000)]),
                        Variant(name: "treatment", weight: Weight(buckets: 3000), ranges: [BucketRange(5000, 8000)])]
        #expect(outcome == ChangeOutcome(message: "ramped `checkout` to control=70,treatment=30; 20 % of subjects switched variant",
                                         ramp: RampPlan(variants: variants, movedBuckets: 2000), revision: 3))
        let experiment = try experiment(snapshot)
        #expect(experiment.variants == variants)
        #expect(experiment.revision == 3)
        #expect(experiment.status == .running)
        #expect(snapshot.revision == 3)
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .ramp,
                                                      before: "control=50,treatment=50", after: "control=70,treatment=30"))
    }

    @Test func rampLeavesUnnamedVariantsAtTheirWeight() throws {
        var snapshot = try Fixture.snapshot(variants: [("control", "10"), ("treatment", "10")])
        try snapshot.apply(.ramp(experiment: Self.key, weights: ["treatment": Fixture.w("0.15")]), context: Fixture.bob)
        let experiment = try experiment(snapshot)
        #expect(experiment.variants.map(\.weight) == [Weight(buckets: 1000), Weight(buckets: 15)])
        #expect(experiment.variants[1].ranges == [BucketRange(1000, 1015)])
        #expect(experiment.status == .draft)
    }

    @Test func rampRefusals() throws {
        let running = try Fixture.snapshot(status: .running)
        expectRefused(running, .ramp(experiment: Self.key, weights: ["zzz": Fixture.w("1"), "aaa": Fixture.w("1")]),
                      .unknownVariant(experiment: Self.key, variant: "aaa", known: ["control", "treatment"]))
        expectRefused(running, .ramp(experiment: Self.key, weights: ["control": Fixture.w("50.01")]),
                      .weightsOverHundred(experiment: Self.key, total: Weight(buckets: 10_001)))
        expectRefused(try Fixture.snapshot(status: .resolved), .ramp(experiment: Self.key, weights: ["control": Fixture.w("10")]),
                      .resolvedIsFrozen(experiment: Self.key, what: "its weights"))
        #expect(ExperimentError.resolvedIsFrozen(experiment: Self.key, what: "its weights").message
            == "experiment `checkout` is resolved; its weights can no longer change")
        #expect(ExperimentError.weightsOverHundred(experiment: Self.key, total: Weight(buckets: 10_001)).message
            == "the weights of `checkout` would add up to 100.01 %; they may add up to 100 % at most")
    }

    // MARK: Variants and payloads

    @Test func addVariantAppendsAtZero() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        let outcome = try snapshot.apply(.addVariant(experiment: Self.key, name: "late", payload: .object(["color": .string("#0a84ff")])),
                                         context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "added variant `late` to `checkout` at 0 %",
                                         revision: 3))
        let experiment = try experiment(snapshot)
        #expect(experiment.variants.map(\.name) == ["control", "treatment", "late"])
        #expect(experiment.variants[2] == Variant(name: "late", weight: .zero, ranges: [], payload: .object(["color": .string("#0a84ff")])))
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .addVariant,
                                                      before: nil, after: "late=0"))
    }

    @Test func addVariantRefusals() throws {
        let running = try Fixture.snapshot(status: .running)
        expectRefused(running, .addVariant(experiment: Self.key, name: "treatment", payload: nil), .duplicateVariant("treatment"))
        expectRefused(running, .addVariant(experiment: Self.key, name: "Late", payload: nil), .invalidVariantName("Late"))
        expectRefused(try Fixture.snapshot(status: .resolved), .addVariant(experiment: Self.key, name: "late", payload: nil),
                      .resolvedIsFrozen(experiment: Self.key, what: "its variants"))
    }

    @Test func setAndClearPayload() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        let payload = JSONValue.object(["size": .number(3), "on": .bool(true)])
        let set = try snapshot.apply(.setPayload(experiment: Self.key, variant: "treatment", payload: payload), context: Fixture.bob)
        #expect(set == ChangeOutcome(message: "set the payload of `treatment`", revision: 3))
        #expect(try experiment(snapshot).variants[1].payload == payload)
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .setPayload,
                                                      before: nil, after: "treatment {\"on\":true,\"size\":3}"))
        let cleared = try snapshot.apply(.setPayload(experiment: Self.key, variant: "treatment", payload: nil), context: Fixture.carol)
        #expect(cleared == ChangeOutcome(message: "cleared the payload of `treatment`", revision: 4))
        #expect(try experiment(snapshot).variants[1].payload == nil)
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t2, operatorName: "carol", experiment: Self.key, action: .setPayload,
                                                      before: "treatment {\"on\":true,\"size\":3}", after: nil))
    }

    @Test func setPayloadRefusals() throws {
        expectRefused(try Fixture.snapshot(), .setPayload(experiment: Self.key, variant: "x", payload: .null),
                      .unknownVariant(experiment: Self.key, variant: "x", known: ["control", "treatment"]))
        expectRefused(try Fixture.snapshot(status: .resolved), .setPayload(experiment: Self.key, variant: "control", payload: .null),
                      .resolvedIsFrozen(experiment: Self.key, what: "its payloads"))
    }

    @Test func setDescriptionInAnyStatusWithItsHistory() throws {
        var snapshot = try Fixture.snapshot(status: .resolved)
        let before = try experiment(snapshot).description
        let outcome = try snapshot.apply(.setDescription(experiment: Self.key, description: "Green wins"), context: Fixture.bob)
        #expect(outcome.message == "changed the description of `checkout`")
        #expect(try experiment(snapshot).description == "Green wins", "a description serves nobody: even a resolved experiment's may change")
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .setDescription,
                                                      before: before, after: "Green wins"))
        #expect(HistoryAction.setDescription.rawValue == "set_description")
        #expect(try snapshot.apply(.setDescription(experiment: Self.key, description: ""), context: Fixture.bob).message
            == "cleared the description of `checkout`")
        expectRefused(snapshot, .setDescription(experiment: Self.key, description: String(repeating: "x", count: StoreSnapshot.maxTextLength + 1)),
                      .textTooLong(field: "description", limit: StoreSnapshot.maxTextLength))
    }

    @Test func replacingAnEntryWithOnlyANewNoteSaysSo() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "QA"), context: Fixture.bob)
        let outcome = try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "QA, keep", replace: true),
                                         context: Fixture.carol)
        #expect(outcome.message == "changed the note of `user-1` in the whitelist of `checkout`")
        #expect(try experiment(snapshot).whitelistEntry(for: "user-1")?.note == "QA, keep")
    }

    @Test func whitelistNoteKeepsTheVariantAndRefusesUnlistedSubjects() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "QA"), context: Fixture.bob)
        let outcome = try snapshot.apply(.whitelistNote(experiment: Self.key, subject: "user-1", note: "QA, keep"), context: Fixture.carol)
        #expect(outcome.message == "changed the note of `user-1` in the whitelist of `checkout`")
        #expect(try experiment(snapshot).whitelistEntry(for: "user-1")?.variant == "treatment")
        #expect(snapshot.history.last?.action == .whitelistAdd)
        #expect(snapshot.history.last?.before == "user-1=treatment note=\"QA\"")
        #expect(snapshot.history.last?.after == "user-1=treatment note=\"QA, keep\"")
        expectRefused(snapshot, .whitelistNote(experiment: Self.key, subject: "user-9", note: "x"), .notWhitelisted(experiment: Self.key, subject: "user-9"))
        try snapshot.apply(.resolve(experiment: Self.key, winner: "treatment"), context: Fixture.bob)
        expectRefused(snapshot, .whitelistNote(experiment: Self.key, subject: "user-1", note: "x"),
                      .resolvedIsFrozen(experiment: Self.key, what: "its whitelist"))
    }

    @Test func payloadParseErrorsHaveOneMessage() {
        #expect(JSONValue.ParseError.invalid.message(for: "{x}") == "the payload is not valid JSON: `{x}`")
        #expect(JSONValue.ParseError.tooDeep(levels: 70).message(for: "")
            == ExperimentError.payloadTooDeep(levels: 70).message)
        #expect(JSONValue.ParseError.repeatedKey.message(for: "").hasPrefix("the payload repeats a key in one object"))
    }

    // MARK: Whitelist

    @Test func whitelistAddAndReplace() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        let added = try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "QA"),
                                       context: Fixture.bob)
        #expect(added == ChangeOutcome(message: "whitelisted `user-1` into `treatment` of `checkout`", revision: 3))
        #expect(try experiment(snapshot).whitelist == ["user-1": WhitelistEntry(subject: "user-1", variant: "treatment", note: "QA",
                                                                               addedBy: "bob", addedAt: Fixture.t1)])
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .whitelistAdd,
                                                      before: nil, after: "user-1=treatment note=\"QA\""))
        // Adding a listed subject again is refused, carrying the current entry, unless the change says replace.
        let current = WhitelistEntry(subject: "user-1", variant: "treatment", note: "QA", addedBy: "bob", addedAt: Fixture.t1)
        expectRefused(snapshot, .whitelistAdd(experiment: Self.key, subject: "user-1", variant: "control", note: ""),
                      .alreadyWhitelisted(experiment: Self.key, entry: current))
        #expect(ExperimentError.alreadyWhitelisted(experiment: Self.key, entry: current).message
            == "subject `user-1` is already whitelisted in `checkout`: variant `treatment`, note \"QA\", added by bob at 2026-01-01 01:00:00 UTC; add --replace to replace it")
        let replaced = try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "control", note: "", replace: true),
                                          context: Fixture.carol)
        #expect(replaced.message == "replaced `user-1` in the whitelist of `checkout`: `treatment` → `control`")
        #expect(try experiment(snapshot).whitelist == ["user-1": WhitelistEntry(subject: "user-1", variant: "control", note: "",
                                                                               addedBy: "carol", addedAt: Fixture.t2)])
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t2, operatorName: "carol", experiment: Self.key, action: .whitelistAdd,
                                                      before: "user-1=treatment note=\"QA\"", after: "user-1=control note=\"\""))
        #expect(snapshot.revision == 4)
        // `replace` on a subject not yet listed simply adds it.
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-2", variant: "control", note: "a \"b\"\nc", replace: true), context: Fixture.carol)
        #expect(snapshot.history.last?.before == nil)
        #expect(snapshot.history.last?.after == #"user-2=control note="a \"b\"\nc""#)
    }

    @Test func whitelistAddAcceptsPausedAndLongestSubjects() throws {
        var snapshot = try Fixture.snapshot(status: .paused)
        let longest = String(repeating: "é", count: 256) // 512 UTF-8 bytes, 256 characters
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: longest, variant: "control", note: ""), context: Fixture.bob)
        #expect(try experiment(snapshot).whitelistEntry(for: longest)?.variant == "control")
    }

    @Test func whitelistAddRefusals() throws {
        let running = try Fixture.snapshot(status: .running)
        let tooLong = String(repeating: "u", count: 257)
        expectRefused(running, .whitelistAdd(experiment: Self.key, subject: "", variant: "control", note: ""), .invalidSubject(""))
        expectRefused(running, .whitelistAdd(experiment: Self.key, subject: tooLong, variant: "control", note: ""), .invalidSubject(tooLong))
        expectRefused(running, .whitelistAdd(experiment: Self.key, subject: "a\u{7}b", variant: "control", note: ""), .invalidSubject("a\u{7}b"))
        expectRefused(running, .whitelistAdd(experiment: Self.key, subject: "a\u{85}b", variant: "control", note: ""), .invalidSubject("a\u{85}b"))
        for padded in [" user-42", "user-42 ", " user-42 ", "\u{A0}user-42", "user-42\u{3000}"] {
            expectRefused(running, .whitelistAdd(experiment: Self.key, subject: padded, variant: "control", note: ""),
                          .subjectWithOuterWhitespace(padded))
            expectRefused(running, .whitelistImport(experiment: Self.key, rows: [WhitelistRow(line: 2, subject: padded, variant: "control", note: "")]),
                          .importRow(line: 2, reason: ExperimentError.subjectWithOuterWhitespace(padded).message))
        }
        #expect(ExperimentError.subjectWithOuterWhitespace(" u ").message
            == "subject id ` u ` starts or ends with a space; ids are matched exactly, so remove the spaces")
        // Inner spaces are part of an id.
        var inner = running
        try inner.apply(.whitelistAdd(experiment: Self.key, subject: "user 42", variant: "control", note: ""), context: Fixture.bob)
        expectRefused(running, .whitelistAdd(experiment: Self.key, subject: "u", variant: "nope", note: ""),
                      .unknownVariant(experiment: Self.key, variant: "nope", known: ["control", "treatment"]))
        expectRefused(running, .whitelistAdd(experiment: Self.key, subject: "u", variant: "control", note: String(repeating: "n", count: 10_001)),
                      .textTooLong(field: "note", limit: 10_000))
        expectRefused(try Fixture.snapshot(status: .resolved), .whitelistAdd(experiment: Self.key, subject: "u", variant: "control", note: ""),
                      .resolvedIsFrozen(experiment: Self.key, what: "its whitelist"))
    }

    @Test func whitelistRemove() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: ""), context: Fixture.alice)
        expectRefused(snapshot, .whitelistRemove(experiment: Self.key, subject: "user-2"),
                      .notWhitelisted(experiment: Self.key, subject: "user-2"))
        let outcome = try snapshot.apply(.whitelistRemove(experiment: Self.key, subject: "user-1"), context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "removed `user-1` from the whitelist of `checkout`", revision: 4))
        #expect(try experiment(snapshot).whitelist.isEmpty)
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key,
                                                      action: .whitelistRemove, before: "user-1=treatment note=\"\"", after: nil))
        var resolved = try Fixture.snapshot(status: .paused)
        try resolved.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: ""), context: Fixture.alice)
        try resolved.apply(.resolve(experiment: Self.key, winner: "control"), context: Fixture.alice)
        expectRefused(resolved, .whitelistRemove(experiment: Self.key, subject: "user-1"),
                      .resolvedIsFrozen(experiment: Self.key, what: "its whitelist"))
    }

    @Test func whitelistImportAddsAndReplacesEveryRow() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "u2", variant: "control", note: "old"), context: Fixture.alice)
        let rows = [WhitelistRow(line: 2, subject: "u1", variant: "treatment", note: "first"),
                    WhitelistRow(line: 3, subject: "u2", variant: "treatment", note: ""),
                    WhitelistRow(line: 5, subject: "u3", variant: "control", note: "third")]
        let outcome = try snapshot.apply(.whitelistImport(experiment: Self.key, rows: rows), context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "imported 3 entries (2 new, 1 replaced) into the whitelist of `checkout`", revision: 4))
        #expect(try experiment(snapshot).sortedWhitelist == [
            WhitelistEntry(subject: "u1", variant: "treatment", note: "first", addedBy: "bob", addedAt: Fixture.t1),
            WhitelistEntry(subject: "u2", variant: "treatment", note: "", addedBy: "bob", addedAt: Fixture.t1),
            WhitelistEntry(subject: "u3", variant: "control", note: "third", addedBy: "bob", addedAt: Fixture.t1),
        ])
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .whitelistImport,
                                                      before: nil, after: #"3 entries (2 new, 1 replaced); new: "u1", "u3"; replaced: "u2""#))
    }

    @Test func whitelistImportHistoryNamesTheFirst20Subjects() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "s3", variant: "control", note: ""), context: Fixture.alice)
        let rows = (1...25).map { WhitelistRow(line: $0, subject: "s\($0)", variant: "treatment", note: "") }
        try snapshot.apply(.whitelistImport(experiment: Self.key, rows: rows), context: Fixture.bob)
        let named = (1...20).filter { $0 != 3 }.map { "\"s\($0)\"" }.joined(separator: ", ")
        #expect(snapshot.history.last?.after == "25 entries (24 new, 1 replaced); new: \(named); replaced: \"s3\"; 5 more")
    }

    @Test func whitelistImportIsAllOrNothing() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistAdd(experiment: Self.key, subject: "u9", variant: "control", note: ""), context: Fixture.alice)
        let good = WhitelistRow(line: 1, subject: "u1", variant: "treatment", note: "")
        func rows(_ bad: WhitelistRow) -> Change {
            .whitelistImport(experiment: Self.key, rows: [good, bad, WhitelistRow(line: 9, subject: "u8", variant: "control", note: "")])
        }
        expectRefused(snapshot, rows(WhitelistRow(line: 4, subject: "u2", variant: "nope", note: "")),
                      .importRow(line: 4, reason: "experiment `checkout` has no variant `nope`; its variants are `control`, `treatment`"))
        expectRefused(snapshot, rows(WhitelistRow(line: 3, subject: "", variant: "control", note: "")),
                      .importRow(line: 3, reason: "subject id `` is not valid; use 1–256 characters without control characters"))
        expectRefused(snapshot, rows(WhitelistRow(line: 7, subject: "u2", variant: "control", note: String(repeating: "n", count: 10_001))),
                      .importRow(line: 7, reason: "the note is longer than 10000 characters"))
        expectRefused(snapshot, rows(WhitelistRow(line: 4, subject: "u1", variant: "control", note: "")),
                      .importRow(line: 4, reason: "subject `u1` is already listed on line 1"))
        expectRefused(snapshot, .whitelistImport(experiment: Self.key, rows: [good, WhitelistRow(line: 4, subject: "u2", variant: "nope", note: ""),
                                                                         WhitelistRow(line: 6, subject: "u1", variant: "control", note: ""),
                                                                         WhitelistRow(line: 8, subject: "", variant: "control", note: "")]),
                      .importRows(problems: [
                          ImportProblem(line: 4, reason: "experiment `checkout` has no variant `nope`; its variants are `control`, `treatment`"),
                          ImportProblem(line: 6, reason: "subject `u1` is already listed on line 1"),
                          ImportProblem(line: 8, reason: "subject id `` is not valid; use 1–256 characters without control characters"),
                      ], total: 3))
        #expect(try experiment(snapshot).importProblems([good]).total == 0)
        expectRefused(snapshot, .whitelistImport(experiment: Self.key, rows: []), .emptyImport)
        expectRefused(try Fixture.snapshot(status: .resolved), .whitelistImport(experiment: Self.key, rows: [good]),
                      .resolvedIsFrozen(experiment: Self.key, what: "its whitelist"))
        #expect(ExperimentError.importRow(line: 4, reason: "subject `u1` is already listed on line 1").message
            == "line 4: subject `u1` is already listed on line 1; nothing was imported")
    }

    @Test func whitelistImportTreatsCanonicallyEquivalentIDsAsDifferentSubjects() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        try snapshot.apply(.whitelistImport(experiment: Self.key, rows: [
            WhitelistRow(line: 1, subject: "h\u{E9}llo", variant: "treatment", note: ""),
            WhitelistRow(line: 2, subject: "he\u{301}llo", variant: "control", note: ""),
        ]), context: Fixture.bob)
        let experiment = try experiment(snapshot)
        #expect(experiment.whitelist.count == 2)
        #expect(experiment.whitelistEntry(for: "h\u{E9}llo")?.variant == "treatment")
        #expect(experiment.whitelistEntry(for: "he\u{301}llo")?.variant == "control")
    }

    // MARK: Resalt

    @Test func resaltChangesOnlyTheSalt() throws {
        var snapshot = try Fixture.snapshot(status: .running)
        let before = try experiment(snapshot)
        let outcome = try snapshot.apply(.resalt(experiment: Self.key, salt: "checkout-2"), context: Fixture.bob)
        #expect(outcome == ChangeOutcome(message: "re-randomized `checkout`: every subject was re-bucketed with the new salt", revision: 3))
        var expected = before
        expected.salt = "checkout-2"
        expected.revision = 3
        expected.updatedAt = Fixture.t1
        expected.updatedBy = "bob"
        #expect(try experiment(snapshot) == expected)
        #expect(snapshot.history.last == HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .resalt,
                                                      before: "checkout", after: "checkout-2"))
        expectRefused(snapshot, .resalt(experiment: Self.key, salt: ""), .invalidSalt)
        expectRefused(try Fixture.snapshot(status: .resolved), .resalt(experiment: Self.key, salt: "x"),
                      .resolvedIsFrozen(experiment: Self.key, what: "its salt"))
    }

    // MARK: Unknown experiments and conflicts

    static let onMissing: [Change] = [
        .addVariant(experiment: "ghost", name: "a", payload: nil), .setPayload(experiment: "ghost", variant: "a", payload: nil),
        .start(experiment: "ghost"), .pause(experiment: "ghost"), .delete(experiment: "ghost"),
        .ramp(experiment: "ghost", weights: [:]), .whitelistAdd(experiment: "ghost", subject: "u", variant: "a", note: ""),
        .whitelistRemove(experiment: "ghost", subject: "u"), .whitelistImport(experiment: "ghost", rows: []),
        .resolve(experiment: "ghost", winner: "a"), .resalt(experiment: "ghost", salt: "s"),
    ]

    @Test(arguments: onMissing)
    func unknownExperimentIsRefused(change: Change) throws {
        #expect(change.experimentKey == "ghost")
        expectRefused(try Fixture.snapshot(), change, .unknownExperiment("ghost"))
    }

    @Test func staleRevisionIsAConflictNamingWhoChangedIt() throws {
        var snapshot = try Fixture.snapshot()
        try snapshot.apply(.start(experiment: Self.key), context: Fixture.bob)
        let conflict = ExperimentError.conflict(experiment: Self.key, expected: 1, actual: 2, by: "bob", at: Fixture.t1)
        for change: Change in [.pause(experiment: Self.key), .delete(experiment: Self.key),
                               .ramp(experiment: Self.key, weights: ["control": Fixture.w("10")])] {
            expectRefused(snapshot, change, expectedRevision: 1, context: Fixture.carol, conflict)
        }
        #expect(conflict.message == "experiment `checkout` was changed by bob at 2026-01-01 01:00:00 UTC (revision 1 → 2) while you were "
            + "looking at it; nothing was applied — review the fresh state and try again")
        try snapshot.apply(.pause(experiment: Self.key), expectedRevision: 2, context: Fixture.carol)
        #expect(try experiment(snapshot).revision == 3)
        #expect(try experiment(snapshot).status == .paused)
    }

    @Test func revisionsCountEveryChange() throws {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(Fixture.draft("a", [("x", "50"), ("y", "50")])), context: Fixture.alice)
        try snapshot.apply(.create(Fixture.draft("b", [("x", "100")])), context: Fixture.alice)
        try snapshot.apply(.start(experiment: "a"), context: Fixture.alice)
        try snapshot.apply(.ramp(experiment: "a", weights: ["x": Fixture.w("40"), "y": Fixture.w("60")]), context: Fixture.alice)
        try snapshot.apply(.delete(experiment: "b"), context: Fixture.alice)
        #expect(snapshot.revision == 5)
        #expect(snapshot.experiments["a"]?.revision == 3)
        #expect(snapshot.history.map(\.action) == [.create, .create, .start, .ramp, .delete])
        #expect(snapshot.history.map(\.experiment) == ["a", "b", "a", "a", "b"])
    }
}
