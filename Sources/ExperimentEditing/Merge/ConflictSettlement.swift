import ExperimentCore
import Foundation

/// A conflicted merge of the store as git left it (index stages 1–3), settled on the console's
/// conflicts screen against what the file holds now (SPEC §11): a unit changed in the file since
/// the merge (the command a conflict printed, any other change) keeps the file's value and is no
/// longer offered, so settling never overwrites a change; each choice is recorded in the history
/// by the settling operator.
public struct ConflictedMerge: Sendable {
    /// BASE (an empty store when both sides added the file), OURS and THEIRS: git's index stages 1, 2 and 3.
    public var base: StoreSnapshot
    public var ours: StoreSnapshot
    public var theirs: StoreSnapshot

    public init(base: StoreSnapshot, ours: StoreSnapshot, theirs: StoreSnapshot) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    /// What the file holds now, against the merge of the stages.
    public enum Reading: Equatable, Sendable {
        /// Conflicts whose unit still holds OURS's value in the file: the operator picks a side for each.
        case open([MergeConflict])
        /// The file lacks entries of OURS's or THEIRS's history: it is not the driver's merge (the
        /// driver did not run, or the file was replaced since).
        case notMerged
        /// No conflict is left to pick: the merge found none, or the file changed each since.
        case settled
    }

    /// What the file holds now (`current`), against the merge of the stages.
    public func reading(current: StoreSnapshot) -> Reading {
        let known = Set(current.history)
        guard ours.history.allSatisfy(known.contains), theirs.history.allSatisfy(known.contains) else { return .notMerged }
        // Only the conflicts are read: the entries the merge would write are the file's already.
        let reader = ChangeContext(operatorName: "abconsole", now: Date(timeIntervalSince1970: 0))
        let open = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: reader).conflicts.filter { conflict in
            ConflictUnit.same(conflict, current, ours)
        }
        return open.isEmpty ? .settled : .open(open)
    }

    /// `current` settled: THEIRS's value for each of `shown` whose id is in `chosen`, the file's
    /// (OURS's) for the others, each choice recorded in the history as `context`'s operator; every
    /// other unit as the file holds it. Refused, nothing changed, unless `shown` are the conflicts
    /// the file has open now.
    public func settle(_ shown: [MergeConflict], takingTheirs chosen: Set<String>, current: StoreSnapshot,
                       context: ChangeContext) throws(SettlementRefusal) -> StoreSnapshot {
        guard reading(current: current) == .open(shown) else {
            throw SettlementRefusal(message: "the store changed since the conflicts screen read it; nothing was written: "
                + "the screen shows the conflicts still open in the file as it is now")
        }
        var settled = current
        var touched: Set<String> = []
        for conflict in shown {
            let taken = chosen.contains(conflict.id)
            if taken { ConflictUnit.copy(conflict, from: theirs, into: &settled) }
            guard let key = conflict.experiment else { continue }  // a store-level field: no experiment to record it against
            let entries = taken ? SettlementEntry.taken(conflict, ours: current, theirs: theirs) : [SettlementEntry.kept(conflict)]
            for entry in entries { settled.record(context, key, entry.action, before: entry.before, after: entry.after) }
            if !entries.isEmpty { touched.insert(key) }
        }
        for key in touched.sorted() {
            guard var experiment = settled.experiments[key] else { continue }  // a draft whose deletion was taken
            experiment.revision += 1
            experiment.updatedAt = context.now
            experiment.updatedBy = context.operatorName
            settled.experiments[key] = experiment
        }
        return settled
    }
}

/// Why the conflicts screen's choices were not written: one sentence.
public struct SettlementRefusal: Error, Equatable, Sendable {
    public var message: String
}
