import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// `StoreMerge` (SPEC §11) on snapshots built by real changes: each rule with its exact result.
struct StoreMergeTests {
    static let key = "checkout"
    /// Who merges, and when: after every change of the sides.
    static let merger = ChangeContext(operatorName: "dana", now: Fixture.t2.addingTimeInterval(3_600))

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
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
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

    @Test func aUnitChangedDifferentlyOnBothSidesKeepsOursAndCarriesTheirsAsChanges() throws {
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.pause(experiment: Self.key)])
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(result.conflicts == [MergeConflict(
            experiment: Self.key, unit: .allocation, base: "running, control=50,treatment=50", ours: "running, control=80,treatment=20",
            theirs: "paused, control=50,treatment=50",
            changes: [.ramp(experiment: Self.key, weights: ["control": Fixture.w("50"), "treatment": Fixture.w("50")]), .pause(experiment: Self.key)],
            order: ["control", "treatment"])])
        #expect(result.snapshot.experiments[Self.key]?.status == .running)
        #expect(result.snapshot.experiments[Self.key]?.variants == ours.experiments[Self.key]?.variants)
        // Settled with THEIRS: the same conflict, THEIRS's allocation.
        let settled = StoreMerge.merge(base: base, ours: ours, theirs: theirs, takingTheirs: [result.conflicts[0].id], by: Self.merger)
        #expect(settled.snapshot.experiments[Self.key]?.status == .paused)
        #expect(settled.snapshot.experiments[Self.key]?.variants == theirs.experiments[Self.key]?.variants)
    }

    @Test func metricsAreAUnitOfTheirOwn() throws {
        let purchase = ExperimentMetrics(goal: NamedMetric(metric: "purchase"), guardrails: [])
        let refunds = ExperimentMetrics(goal: NamedMetric(metric: "purchase"), guardrails: [NamedMetric(metric: "refund", direction: .decrease)])
        // One side names the metrics, the other ramps: both land.
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.edit(experiment: Self.key, .setMetrics(purchase))])
        let clean = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(clean.conflicts.isEmpty)
        #expect(clean.snapshot.experiments[Self.key]?.metrics == purchase)
        #expect(clean.snapshot.experiments[Self.key]?.variants == ours.experiments[Self.key]?.variants)
        // Named differently on both sides: a metrics conflict holding OURS, with the change for THEIRS.
        let (base2, ours2, theirs2) = try sides([.edit(experiment: Self.key, .setMetrics(purchase))],
                                                [.edit(experiment: Self.key, .setMetrics(refunds))])
        let result = StoreMerge.merge(base: base2, ours: ours2, theirs: theirs2, by: Self.merger)
        #expect(result.conflicts == [MergeConflict(
            experiment: Self.key, unit: .metrics, base: "no goal or guardrail metrics", ours: "goal purchase",
            theirs: "goal purchase; guardrails refund:decrease",
            changes: [.setMetrics(experiment: Self.key, metrics: refunds)])])
        #expect(result.snapshot.experiments[Self.key]?.metrics == purchase)
        let settled = StoreMerge.merge(base: base2, ours: ours2, theirs: theirs2, takingTheirs: [result.conflicts[0].id], by: Self.merger)
        #expect(settled.snapshot.experiments[Self.key]?.metrics == refunds)
        #expect(StoreDiff.changes(old: base2, new: theirs2).map(\.action) == ["set_metrics"])
        #expect(StoreDiff.words(theirs2).contains("  \(Self.key) metrics: goal purchase; guardrails refund:decrease"))
    }

    @Test func equalChangesOnBothSidesAreNoConflict() throws {
        let note = Change.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa")
        let (base, ours, theirs) = try sides([note], [note])
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(result.conflicts.isEmpty)
        #expect(result.snapshot.experiments[Self.key]?.whitelist.count == 1)
        #expect(result.snapshot.experiments[Self.key]?.whitelistEntry(for: "user-1")?.addedBy == "bob")  // equal units: OURS's entry
    }

    @Test func aDraftDeletedOnOneSideAndChangedOnTheOtherIsAnExistenceConflict() throws {
        let base = try Fixture.snapshot(Self.key, status: .draft)
        var ours = base, theirs = base
        try ours.apply(.delete(experiment: Self.key), context: Fixture.bob)
        try theirs.apply(.setDescription(experiment: Self.key, description: "keep it"), context: Fixture.carol)
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(result.conflicts.map(\.unit) == [.existence])
        #expect(result.snapshot.experiments[Self.key] == nil)  // OURS's value: deleted
        var untouched = base
        try untouched.apply(.create(Fixture.draft("other", [("a", "50"), ("b", "50")])), context: Fixture.carol)
        let clean = StoreMerge.merge(base: base, ours: ours, theirs: untouched, by: Self.merger)
        #expect(clean.conflicts.isEmpty)
        #expect(Set(clean.snapshot.experiments.keys) == ["other"])  // deleted (THEIRS left it unchanged), THEIRS's new one added
    }

    @Test func createdOnBothSidesMergesAgainstAnEmptyBase() throws {
        let base = StoreSnapshot()
        var ours = base, theirs = base
        try ours.apply(.create(Fixture.draft("x", [("a", "50"), ("b", "50")])), context: Fixture.bob)
        try theirs.apply(.create(Fixture.draft("x", [("a", "50"), ("b", "50")], description: "theirs")), context: Fixture.carol)
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(result.conflicts.map(\.unit) == [.description])
        #expect(result.snapshot.experiments["x"]?.description == "")
    }

    /// A context of `name` at `minutes` after `Fixture.t2`.
    static func at(_ minutes: Double, _ name: String) -> ChangeContext {
        ChangeContext(operatorName: name, now: Fixture.t2.addingTimeInterval(minutes * 60))
    }

    @Test func interleavedHistoriesMergeCleanlyEachEntryOnceInTimeOrder() throws {
        // Step 1: OURS and THEIRS each change a different unit; the merge interleaves their entries by time.
        let base = try Fixture.snapshot(Self.key, status: .running)
        var ours = base, theirs = base
        try ours.apply(.setDescription(experiment: Self.key, description: "ours"), context: Self.at(1, "bob"))
        try theirs.apply(.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa"), context: Self.at(2, "carol"))
        try ours.apply(.edit(experiment: Self.key, .setPayload(variant: "control", payload: .bool(true))), context: Self.at(3, "bob"))
        let first = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(first.conflicts.isEmpty)
        #expect(first.snapshot.history.map(\.operatorName).suffix(3) == ["bob", "carol", "bob"])
        // Step 2: THEIRS (not the merge) goes on; its BASE (THEIRS as it was) is no prefix of the merged side.
        var later = theirs
        try later.apply(.whitelistAdd(experiment: Self.key, subject: "user-2", variant: "control", note: ""), context: Self.at(4, "carol"))
        #expect(!first.snapshot.history.starts(with: theirs.history))
        let second = StoreMerge.merge(base: theirs, ours: first.snapshot, theirs: later, by: Self.merger)
        #expect(second.conflicts.isEmpty)
        let history = second.snapshot.history
        #expect(history.count == Set(history).count, "each entry once")
        #expect(Set(history) == Set(first.snapshot.history + later.history))
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.at <= $1.at }, "in time order")
        #expect(!history.contains { $0.action == .revert })
        let merged = try #require(second.snapshot.experiments[Self.key])
        #expect(merged.description == "ours" && merged.whitelist.count == 2 && merged.variant(named: "control")?.payload == .bool(true))
        // The other way round (THEIRS's side as OURS): the same units and the same history set (rule 8).
        let mirrored = StoreMerge.merge(base: theirs, ours: later, theirs: first.snapshot, by: Self.merger)
        #expect(Set(mirrored.snapshot.history) == Set(history))
        #expect(mirrored.snapshot.experiments[Self.key]?.whitelist == merged.whitelist)
        #expect(mirrored.snapshot.experiments[Self.key]?.description == merged.description)
    }

    @Test func anEntryBothSidesHoldAppearsOnceAndARepeatedEntryOfOneSideStays() {
        let entry = HistoryEntry(at: Fixture.t1, operatorName: "bob", experiment: Self.key, action: .pause, before: nil, after: nil)
        let other = HistoryEntry(at: Fixture.t0, operatorName: "carol", experiment: Self.key, action: .start, before: nil, after: nil)
        let merged = StoreMerge.mergedHistory(base: [], ours: [entry, entry], theirs: [other, entry])
        #expect(merged == [other, entry, entry])
        // BASE's entry a side dropped (a revert, a rebase) is kept: the history only grows.
        #expect(StoreMerge.mergedHistory(base: [other], ours: [entry], theirs: [entry]) == [other, entry])
    }

    @Test func aValueTakenWithoutAnEntryOfItsSideGetsARevertEntryByTheMerge() throws {
        // git revert: BASE is the ramped commit, OURS keeps it, THEIRS is the commit before the ramp.
        let before = try Fixture.snapshot(Self.key, status: .running)
        var ramped = before
        try ramped.apply(.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")]), context: Self.at(1, "bob"))
        var ours = ramped
        try ours.apply(.setDescription(experiment: Self.key, description: "later"), context: Self.at(2, "bob"))
        let result = StoreMerge.merge(base: ramped, ours: ours, theirs: before, by: Self.merger)
        #expect(result.conflicts.isEmpty)
        let merged = try #require(result.snapshot.experiments[Self.key])
        #expect(merged.variants == before.experiments[Self.key]?.variants)
        #expect(merged.description == "later")
        var revert = HistoryEntry(at: Self.merger.now, operatorName: "dana", experiment: Self.key, action: .revert,
                                  before: "allocation running, control=80,treatment=20", after: "allocation running, control=50,treatment=50")
        revert.byMerge = true
        #expect(result.snapshot.history == ours.history + [revert], "the ramp's entry stays, the revert explains the value")
    }

    @Test func aRevertToAnEmptyDescriptionSaysSoInWords() throws {
        // git revert of the commit that first set a description: THEIRS holds the empty one again.
        let before = try Fixture.snapshot(Self.key, status: .running)  // its description is empty
        var described = before
        try described.apply(.setDescription(experiment: Self.key, description: "why"), context: Self.at(1, "bob"))
        var ours = described
        try ours.apply(.pause(experiment: Self.key), context: Self.at(2, "bob"))
        let result = StoreMerge.merge(base: described, ours: ours, theirs: before, by: Self.merger)
        let revert = try #require(result.snapshot.history.last { $0.action == .revert })
        #expect(revert.before == "description why")
        #expect(revert.after == "description \"\"", "an empty value is shown, not a dangling word")
    }

    @Test func diffNamesTheEntriesNewHasThatOldLacksWithoutNeedingAPrefix() throws {
        let base = try Fixture.snapshot(Self.key, status: .running)
        var ours = base, theirs = base
        try ours.apply(.setDescription(experiment: Self.key, description: "ours"), context: Self.at(2, "bob"))
        try theirs.apply(.pause(experiment: Self.key), context: Self.at(1, "carol"))
        let merged = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger).snapshot
        #expect(!merged.history.starts(with: ours.history))
        #expect(StoreDiff.changes(old: ours, new: merged).map(\.action) == ["pause"])
        #expect(StoreDiff.changes(old: theirs, new: merged).map(\.action) == ["set_description"])
        // No new entry (a revert git made without the driver): the units that differ.
        #expect(StoreDiff.changes(old: merged, new: base).map(\.action) == ["allocation", "description"])
    }

    @Test func unknownFieldsInsideMetricsAreKeptByAChangeAndAMerge() throws {
        var base = try Fixture.snapshot(Self.key, status: .running)
        var goal = NamedMetric(metric: "purchase")
        goal.unknownFields = ["window": .string("7d")]
        var metrics = ExperimentMetrics(goal: goal, guardrails: [NamedMetric(metric: "refund", direction: .decrease)])
        metrics.unknownFields = ["owner": .string("growth")]
        base.experiments[Self.key]?.metrics = metrics
        // A change naming the same goal keeps its fields and the object's.
        var ours = base
        try ours.apply(.edit(experiment: Self.key, .setMetrics(ExperimentMetrics(goal: NamedMetric(metric: "purchase")))), context: Self.at(1, "bob"))
        #expect(ours.experiments[Self.key]?.metrics.goal?.unknownFields == ["window": .string("7d")])
        #expect(ours.experiments[Self.key]?.metrics.unknownFields == ["owner": .string("growth")])
        // A merge where THEIRS changed a field inside the metrics takes it (one side changed the unit).
        var theirs = base
        theirs.experiments[Self.key]?.metrics.guardrails[0].unknownFields = ["limit": .string("2%")]
        theirs.revision += 1
        let merged = StoreMerge.merge(base: base, ours: base, theirs: theirs, by: Self.merger).snapshot
        #expect(merged.experiments[Self.key]?.metrics.guardrails.first?.unknownFields == ["limit": .string("2%")])
        let both = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(both.conflicts.map(\.unit) == [.metrics] && both.conflicts[0].changes.isEmpty, "no change writes a field this version does not know")
        #expect(both.conflicts[0].theirs?.contains("refund field limit=\"2%\"") == true, "\(both.conflicts[0])")
    }

    @Test func aSideEqualToBaseOrEqualSidesGiveTheOtherSideUnchanged() throws {
        let (base, ours, theirs) = try sides([.pause(experiment: Self.key)], [.setDescription(experiment: Self.key, description: "x")])
        var odd = ours
        odd.revision = 99
        #expect(StoreMerge.merge(base: base, ours: base, theirs: odd, by: Self.merger).snapshot == odd)
        #expect(StoreMerge.merge(base: base, ours: odd, theirs: base, by: Self.merger).snapshot == odd)
        #expect(StoreMerge.merge(base: theirs, ours: odd, theirs: odd, by: Self.merger).snapshot == odd)
        // Criss-cross: BASE unrelated to both, the sides equal: still OURS unchanged.
        let unrelated = try Fixture.snapshot("other", status: .running)
        #expect(StoreMerge.merge(base: unrelated, ours: ours, theirs: ours, by: Self.merger).snapshot == ours)
    }

    @Test func aCleanWhitelistEntryIntoAVariantTheAllocationLacksIsAConflict() throws {
        // THEIRS adds a variant and whitelists into it; OURS ramps: the allocation conflicts (OURS's, without the variant).
        let (base, ours, theirs) = try sides([.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])],
                                             [.addVariant(experiment: Self.key, name: "blue", payload: nil),
                                              .whitelistAdd(experiment: Self.key, subject: "user-9", variant: "blue", note: "")])
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
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
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: Self.merger)
        #expect(result.conflicts.isEmpty)
        #expect(result.snapshot.unknownFields == ["x_future": .number(JSONNumber(literal: "2")!), "y": .bool(true)])
    }
}
