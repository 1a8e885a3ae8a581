import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing

/// `ConflictedMerge` (SPEC §11, the console's conflicts screen): settled against the file as it is
/// now, each choice recorded as the settling operator; taking THEIRS records what the CLI records
/// for the same change.
struct ConflictSettlementTests {
    static let key = "checkout"
    static let settler = ChangeContext(operatorName: "settler", now: Date(timeIntervalSince1970: 1_767_240_000))

    /// BASE: a running 50/50 experiment; OURS and THEIRS: BASE with `ours` and `theirs` applied; the
    /// file: the driver's merge of the three.
    func merge(base changes: [Change] = [], _ ours: [Change], _ theirs: [Change]) throws -> (ConflictedMerge, file: StoreSnapshot, conflicts: [MergeConflict]) {
        var base = try Fixture.snapshot(Self.key, status: .running)
        for change in changes { try base.apply(change, context: Fixture.alice) }
        var (left, right) = (base, base)
        for change in ours { try left.apply(change, context: Fixture.bob) }
        for change in theirs { try right.apply(change, context: Fixture.carol) }
        let driver = StoreMerge.merge(base: base, ours: left, theirs: right, by: Fixture.alice)
        return (ConflictedMerge(base: base, ours: left, theirs: right), driver.snapshot, driver.conflicts)
    }

    /// The (action, before, after) of the last `count` history entries.
    func newest(_ snapshot: StoreSnapshot, _ count: Int) -> [[String?]] {
        snapshot.history.suffix(count).map { [$0.operatorName, $0.action.rawValue, $0.before, $0.after] }
    }

    @Test func takingTheirsRecordsWhatTheCLIRecordsForTheSameChange() throws {
        let ramp = Change.ramp(experiment: Self.key, weights: ["control": Fixture.w("80"), "treatment": Fixture.w("20")])
        let (merge, file, conflicts) = try merge(
            [ramp, .whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "ours"),
             .setDescription(experiment: Self.key, description: "ours")],
            [.pause(experiment: Self.key), .whitelistAdd(experiment: Self.key, subject: "user-1", variant: "control", note: "theirs"),
             .setDescription(experiment: Self.key, description: "theirs")])
        #expect(conflicts.map(\.unit) == [.allocation, .description, .whitelist])
        #expect(merge.reading(current: file) == .open(conflicts))
        let settled = try merge.settle(conflicts, takingTheirs: Set(conflicts.map(\.id)), current: file, context: Self.settler)

        // The commands each conflict printed, applied to the file by the CLI as the same operator.
        var byCLI = file
        for change: Change in [.ramp(experiment: Self.key, weights: ["control": Fixture.w("50"), "treatment": Fixture.w("50")]),
                               .pause(experiment: Self.key), .setDescription(experiment: Self.key, description: "theirs"),
                               .whitelistAdd(experiment: Self.key, subject: "user-1", variant: "control", note: "theirs", replace: true)] {
            try byCLI.apply(change, context: Self.settler)
        }
        #expect(newest(settled, 4) == newest(byCLI, 4))
        #expect(settled.history.count == file.history.count + 4)
        let experiment = try #require(settled.experiments[Self.key])
        #expect(experiment.status == .paused && experiment.weightSummary == "control=50,treatment=50" && experiment.description == "theirs")
        #expect(experiment.whitelist[SubjectID("user-1")] == merge.theirs.experiments[Self.key]?.whitelist[SubjectID("user-1")],
                "THEIRS's entry, with its added_at/added_by")
        #expect((experiment.updatedBy, experiment.updatedAt) == ("settler", Self.settler.now))
        #expect(experiment.revision == file.experiments[Self.key]!.revision + 1)
        #expect(settled.revision == file.revision + 4)
    }

    @Test func keepingOursRecordsAKeepEntryWithTheDeclinedAndKeptWords() throws {
        let (merge, file, conflicts) = try merge(
            [.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa")],
            [.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "control", note: "qa")])
        let settled = try merge.settle(conflicts, takingTheirs: [], current: file, context: Self.settler)
        #expect(newest(settled, 1) == [["settler", "keep", conflicts[0].theirs, conflicts[0].ours]])
        #expect(settled.experiments[Self.key]?.whitelist == file.experiments[Self.key]?.whitelist)
        #expect(settled.experiments[Self.key]?.updatedBy == "settler")
    }

    @Test func aRemovalTakenIsAWhitelistRemove() throws {
        let (merge, file, conflicts) = try merge(base: [.whitelistAdd(experiment: Self.key, subject: "user-1", variant: "treatment", note: "qa")],
                                                 [.whitelistNote(experiment: Self.key, subject: "user-1", note: "changed")],
                                                 [.whitelistRemove(experiment: Self.key, subject: "user-1")])
        let settled = try merge.settle(conflicts, takingTheirs: Set(conflicts.map(\.id)), current: file, context: Self.settler)
        var byCLI = file
        try byCLI.apply(.whitelistRemove(experiment: Self.key, subject: "user-1"), context: Self.settler)
        #expect(newest(settled, 1) == newest(byCLI, 1))
        #expect(settled.experiments[Self.key]?.whitelist.isEmpty == true)
    }

    @Test func aUnitChangedInTheFileSinceTheMergeIsNotOfferedAndKeepsItsValue() throws {
        let (merge, file, conflicts) = try merge(
            [.setDescription(experiment: Self.key, description: "ours"), .pause(experiment: Self.key)],
            [.setDescription(experiment: Self.key, description: "theirs"), .resalt(experiment: Self.key, salt: "s2")])
        #expect(conflicts.map(\.unit) == [.allocation, .description])
        var now = file
        try now.apply(.setDescription(experiment: Self.key, description: "theirs"), context: Self.settler)  // the printed command
        #expect(merge.reading(current: now) == .open([conflicts[0]]))
        let settled = try merge.settle([conflicts[0]], takingTheirs: [], current: now, context: Self.settler)
        #expect(settled.experiments[Self.key]?.description == "theirs")
        #expect(Array(settled.history.dropLast()) == now.history, "every entry the file holds stays")
        #expect(settled.history.last?.action == .keep)
        // Settled in the file entirely: nothing left to pick.
        try now.apply(.start(experiment: Self.key), context: Self.settler)
        try now.apply(.resalt(experiment: Self.key, salt: "s2"), context: Self.settler)
        #expect(merge.reading(current: now) == .settled)
    }

    @Test func conflictsNoLongerOpenAreRefusedAndAFileWithoutTheMergeIsNamed() throws {
        let (merge, file, conflicts) = try merge([.setDescription(experiment: Self.key, description: "ours")],
                                                 [.setDescription(experiment: Self.key, description: "theirs")])
        var now = file
        try now.apply(.setDescription(experiment: Self.key, description: "third"), context: Self.settler)
        #expect(throws: SettlementRefusal.self) {
            try merge.settle(conflicts, takingTheirs: Set(conflicts.map(\.id)), current: now, context: Self.settler)
        }
        // OURS's file (git merged without the driver): THEIRS's entries are missing.
        #expect(merge.reading(current: merge.ours) == .notMerged)
    }
}
