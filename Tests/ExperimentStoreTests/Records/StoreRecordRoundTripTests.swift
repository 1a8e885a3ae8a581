import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentStore

/// Every record's write, fast read and Foundation read agree: one snapshot with every field set
/// goes through the writer, the one-pass reader and `JSONDecoder`, and comes back whole.
@Suite("Store records round trip")
struct StoreRecordRoundTripTests {
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    static let t1 = t0.addingTimeInterval(3_600)

    /// `alpha` sets every field of every record, with text that needs escaping; `beta` is plain, so
    /// a save may copy it verbatim.
    static func everyFieldSet() -> StoreSnapshot {
        let awkward = "quote \" backslash \\ tab \t é 🙂 \u{1B}[2J"
        var whitelist: [SubjectID: WhitelistEntry] = [:]
        for (subject, variant) in [("user-é", "b"), ("user-1", "a")] {
            whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: variant, note: awkward, addedBy: "alice", addedAt: t1)
        }
        let payload = JSONValue.object(["color": .string("#0a84ff"), "ratio": .number(1.5), "on": .bool(true),
                                        "list": .array([.null, .number(2.25), .string(awkward)])])
        var alpha = Experiment(key: "alpha", type: .device, status: .resolved, salt: "salt α", control: "a", winner: "b",
                               description: awkward, revision: 7, createdAt: t0, updatedAt: t1, updatedBy: "bob",
                               variants: [Variant(name: "a", weight: Weight(buckets: 2550), ranges: [BucketRange(0, 2000), BucketRange(9450, 10_000)], payload: payload),
                                          Variant(name: "b", weight: Weight(buckets: 7450), ranges: [BucketRange(2000, 9450)], payload: .string("b"))],
                               whitelist: whitelist)
        // Fields a newer build wrote inside the metrics (the object, a goal, a guardrail) come back too.
        var goal = NamedMetric(metric: "purchase")
        goal.unknownFields = ["window": .string(awkward)]
        alpha.metrics = ExperimentMetrics(goal: goal, guardrails: [NamedMetric(metric: "refund", direction: .decrease)])
        alpha.metrics.unknownFields = ["owner": .object(["team": .string("growth")])]
        alpha.metrics.guardrails[0].unknownFields = ["limit": .number(2.5)]
        let beta = Experiment(key: "beta", type: .user, status: .running, salt: "beta", control: "control", winner: nil,
                              description: "plain", revision: 2, createdAt: t0, updatedAt: t0, updatedBy: "alice",
                              variants: [Variant(name: "control", weight: Weight(buckets: 5000), ranges: [BucketRange(0, 5000)])],
                              whitelist: [SubjectID("qa-1"): WhitelistEntry(subject: "qa-1", variant: "control", note: "QA", addedBy: "alice", addedAt: t0)])
        var history = [HistoryEntry(at: t0, operatorName: "alice", experiment: "alpha", action: .create, before: awkward, after: "draft a=25.5,b=74.5"),
                       HistoryEntry(at: t1, operatorName: "bob", experiment: "alpha", action: .resolve, before: "running", after: "resolved winner=b")]
        // A merge's revert entry, marked as the merge's.
        var revert = HistoryEntry(at: t1, operatorName: "dana", experiment: "beta", action: .revert, before: "description x", after: "description plain")
        revert.byMerge = true
        history.append(revert)
        return StoreSnapshot(revision: 9, experiments: ["alpha": alpha, "beta": beta], history: history)
    }

    @Test func everyFieldSurvivesTheWriterTheFastReaderAndTheFoundationFallback() throws {
        let snapshot = Self.everyFieldSet()
        #expect(StoreValidator.problems(in: StoreDocument(snapshot)).isEmpty)
        let bytes = StoreFile.encode(snapshot)
        let fast = try #require(StoreReader.document(from: bytes), "the fast reader reads everything the writer writes")
        let foundation = try StoreCoding.decoder().decode(StoreDocument.self, from: bytes)
        for document in [fast, foundation] {
            #expect(document.schemaVersion == StoreSnapshot.currentSchemaVersion)
            #expect(document.revision == snapshot.revision)
            #expect(document.experiments == snapshot.sortedExperiments)
            #expect(document.history == snapshot.history)
        }
        #expect(try StoreSnapshot.decode(bytes, path: "experiments.json") == snapshot)
        let reading = try #require(StoreReader.reading(from: bytes, recognising: StoreWriter.writtenSpan))
        #expect(reading.verbatim.keys.sorted() == ["beta"], "plain entries are recognised as written; escaped ones are encoded again")
    }
}
