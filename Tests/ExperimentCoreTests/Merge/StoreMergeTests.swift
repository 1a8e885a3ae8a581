import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore

/// `StoreMerge` (SPEC §11) on snapshots built by real changes: each rule with its exact result.
struct StoreMergeTests {
    static let key = "checkout"

    /// BASE: a running 50/50 experiment; OURS and THEIRS: BASE with `ours` and `theirs` applied.
    func sides(_ ours: [Change], by oursContext: ChangeContext = Fixture.bob,
               _ theirs: [Change], by theirsContext: ChangeContext = Fixture.carol) throws -> (StoreSnapshot, StoreSnapshot, StoreSnapshot) {
        let base = try Fixture.snapshot(Self.key, status: .running)
        var (left, right) = (base, base)
        for change in ours { try left.apply(change, context: oursContext) }
        for change in theirs { try right.apply(change, context: theirsContext) }
        return (base, left, right)
    }

    @Test func disjointUnitsMergeCleanlyWithBothHistoriesAndRule5Revisions() throws {
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa"),
                                              .setDescription(experiment: Self.key, description: "why")])
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        let merged = try #require(result.snapshot.experiments[Self.key])
        #expect(merged.variants == ours.experiments[Self.key]?.variants)
        #expect(merged.whitelist == theirs.experiments[Self.key]?.whitelist)
        #expect(merged.description == "why")
        #expect(merged.revision == max(ours.experiments[Self.key]!.revision, theirs.experiments[Self.key]!.revision) + 1)
        #expect((merged.updatedAt, merged.updatedBy) == (Fixture.t2, "carol"))  // the latest entry of the merged history
        #expect(result.snapshot.revision == max(ours.revision, theirs.revision) + 1)
        // BASE's entries, then OURS's (t1) and THEIRS's (t2) in time order.
        #expect(result.snapshot.history == base.history + ours.history.dropFirst(base.history.count) + theirs.history.dropFirst(base.history.count))
    }

    @Test func aUnitChangedDifferentlyOnBothSidesKeepsOursAndNamesTheCommandForTheirs() throws {
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.pause(experiment: Self.key)])
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts == [MergeConflict(
            experiment: Self.key, unit: .allocation, base: "running, control=50,treatment=50", ours: "running, control=80,treatment=20",
            theirs: "paused, control=50,treatment=50",
            commands: [["ramp", Self.key, "control=50", "treatment=50"], ["pause", Self.key]])])
        #expect(result.snapshot.experiments[Self.key]?.status == .running)
        #expect(result.snapshot.experiments[Self.key]?.variants == ours.experiments[Self.key]?.variants)
        // Settled with THEIRS: the same conflict, THEIRS's allocation.
        let settled = try StoreMerge.merge(base: base, ours: ours, theirs: theirs, takingTheirs: [result.conflicts[0].id])
        #expect(settled.snapshot.experiments[Self.key]?.status == .paused)
        #expect(settled.snapshot.experiments[Self.key]?.variants == theirs.experiments[Self.key]?.variants)
    }

    @Test func metricsAreAUnitOfTheirOwn() throws {
        let purchase = ExperimentMetrics(goal: NamedMetric(metric: "purchase"), guardrails: [])
        let refunds = ExperimentMetrics(goal: NamedMetric(metric: "purchase"), guardrails: [NamedMetric(metric: "refund", direction: .decrease)])
        // One side names the metrics, the other ramps: both land.
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.edit(experiment: Self.key, .setMetrics(purchase))])
        let clean = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(clean.conflicts.isEmpty)
        #expect(clean.snapshot.experiments[Self.key]?.metrics == purchase)
        #expect(clean.snapshot.experiments[Self.key]?.variants == ours.experiments[Self.key]?.variants)
        // Named differently on both sides: a metrics conflict holding OURS, with the command for THEIRS.
        let (base2, ours2, theirs2) = try sides([.edit(experiment: Self.key, .setMetrics(purchase))],
                                                [.edit(experiment: Self.key, .setMetrics(refunds))])
        let result = try StoreMerge.merge(base: base2, ours: ours2, theirs: theirs2)
        #expect(result.conflicts == [MergeConflict(
            experiment: Self.key, unit: .metrics, base: "no goal or guardrail metrics", ours: "goal purchase",
            theirs: "goal purchase; guardrails refund:decrease",
            commands: [["set-metrics", Self.key, "--clear", "--goal", "purchase", "--guardrail", "refund:decrease"]])])
        #expect(result.snapshot.experiments[Self.key]?.metrics == purchase)
        let settled = try StoreMerge.merge(base: base2, ours: ours2, theirs: theirs2, takingTheirs: [result.conflicts[0].id])
        #expect(settled.snapshot.experiments[Self.key]?.metrics == refunds)
        #expect(StoreDiff.changes(old: base2, new: theirs2).map(\.action) == ["set_metrics"])
        #expect(StoreDiff.words(theirs2).contains("  \(Self.key) metrics: goal purchase; guardrails refund:decrease"))
    }

    @Test func equalChangesOnBothSidesAreNoConflict() throws {
        let note = Change.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa")
        let (base, ours, theirs) = try sides([note], [note])
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.snapshot.experiments[Self.key]?.whitelist.count == 1)
        #expect(result.snapshot.experiments[Self.key]?.whitelistEntry(for: "user-1")?.addedBy == "bob")  // equal units: OURS's entry
    }

    @Test func aDraftDeletedOnOneSideAndChangedOnTheOtherIsAnExistenceConflict() throws {
        let base = try Fixture.snapshot(Self.key, status: .draft)
        var ours = base, theirs = base
        try ours.apply(.delete(experiment: Self.key), context: Fixture.bob)
        try theirs.apply(.setDescription(experiment: Self.key, description: "keep it"), context: Fixture.carol)
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.map(\.unit) == [.existence])
        #expect(result.snapshot.experiments[Self.key] == nil)  // OURS's value: deleted
        var untouched = base
        try untouched.apply(.create(Fixture.draft("other", [("a", "50"), ("b", "50")])), context: Fixture.carol)
        let clean = try StoreMerge.merge(base: base, ours: ours, theirs: untouched)
        #expect(clean.conflicts.isEmpty)
        #expect(Set(clean.snapshot.experiments.keys) == ["other"])  // deleted (THEIRS left it unchanged), THEIRS's new one added
    }

    @Test func createdOnBothSidesMergesAgainstAnEmptyBase() throws {
        let base = StoreSnapshot()
        var ours = base, theirs = base
        try ours.apply(.create(Fixture.draft("x", [("a", "50"), ("b", "50")])), context: Fixture.bob)
        try theirs.apply(.create(Fixture.draft("x", [("a", "50"), ("b", "50")], description: "theirs")), context: Fixture.carol)
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.map(\.unit) == [.description])
        #expect(result.snapshot.experiments["x"]?.description == "")
    }

    @Test func historiesThatDoNotStartWithBasesAreRefused() throws {
        let (base, ours, _) = try sides([.pause(experiment: Self.key)], [])
        let unrelated = try Fixture.snapshot("other", status: .running)
        #expect(throws: MergeError.notDescendants(side: "THEIRS")) { try StoreMerge.merge(base: base, ours: ours, theirs: unrelated) }
        #expect(throws: MergeError.notDescendants(side: "OURS")) { try StoreMerge.merge(base: ours, ours: base, theirs: ours) }
    }

    @Test func aCleanWhitelistEntryIntoAVariantTheAllocationLacksIsAConflict() throws {
        // THEIRS adds a variant and whitelists into it; OURS ramps: the allocation conflicts (OURS's, without the variant).
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.addVariant(experiment: Self.key, name: "blue", payload: nil),
                                              .whitelistAdd(experiment: Self.key, subject: "user-9", variant: "blue", note: "")])
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.map(\.unit) == [.allocation, .whitelist])
        #expect(result.conflicts.last?.subject == "user-9")
        #expect(result.snapshot.experiments[Self.key]?.whitelist.isEmpty == true)
        #expect(StoreValidator.problems(in: StoreDocument(result.snapshot)).isEmpty)
    }

    @Test func unknownFieldsMergePerName() throws {
        var (base, ours, theirs) = try sides([], [])
        base.unknownFields = ["x_future": .number(JSONNumber(literal: "1")!)]
        ours.unknownFields = ["x_future": .number(JSONNumber(literal: "1")!), "y": .bool(true)]
        theirs.unknownFields = ["x_future": .number(JSONNumber(literal: "2")!)]
        ours.revision += 1
        let result = try StoreMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.snapshot.unknownFields == ["x_future": .number(JSONNumber(literal: "2")!), "y": .bool(true)])
    }
}
