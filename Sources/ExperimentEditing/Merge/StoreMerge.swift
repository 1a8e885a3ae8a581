import ExperimentCore
import Foundation

/// The three-way merge of stores by meaning (SPEC §11): units compared between BASE (the common
/// ancestor), OURS and THEIRS; a unit changed on one side takes that side's value, changed on both
/// to different values it is a conflict and keeps OURS's. Pure: snapshots in, a snapshot out.
public enum StoreMerge {
    /// The merged store and its conflicts; entries the merge writes (a `revert`, rule 4) are by
    /// `context`'s operator at its time.
    ///
    /// A conflict whose `id` is in `takingTheirs` takes THEIRS's value instead of OURS's (the
    /// console's conflicts screen settles a conflicted merge so); it is still listed. A side equal to
    /// BASE, or two equal sides, give the other side unchanged (rule 8).
    public static func merge(base: StoreSnapshot, ours: StoreSnapshot, theirs: StoreSnapshot,
                             takingTheirs chosen: Set<String> = [], by context: ChangeContext) -> MergeResult {
        let stores = [base, ours, theirs]
        if let side = unchangedSide({ stores[$0.rawValue] == stores[$1.rawValue] }) {
            return MergeResult(snapshot: stores[side.rawValue], conflicts: [])
        }
        return merge(base: base, ours: ours, theirs: theirs, takingTheirs: chosen, by: context) { base, ours, theirs, history, chosen in
            let decided = mergeExperiment(base: base, ours: ours, theirs: theirs, history: history, chosen: chosen)
            return (decided.experiment, decided.conflicts)
        }
    }

    /// BASE, OURS or THEIRS: the sides a merge compares and takes values from.
    package enum Side: Int, Sendable {
        case base, ours, theirs
    }

    /// Rule 8, the one order of its comparisons: the side whose value the merge takes whole, given
    /// `same` (whether two sides hold equal values). Equal sides give OURS; a side equal to BASE,
    /// the other side; nil when each two differ. The plain merge asks it with value equality, of
    /// whole stores and of each experiment; `WrittenMerge` with equality of the files' bytes.
    package static func unchangedSide(_ same: (Side, Side) -> Bool) -> Side? {
        if same(.ours, .theirs) { return .ours }
        if same(.ours, .base) { return .theirs }
        if same(.theirs, .base) { return .ours }
        return nil
    }

    /// Merges one experiment by key (nil: absent): the merged experiment and its conflicts.
    package typealias ExperimentMerge = (_ base: Experiment?, _ ours: Experiment?, _ theirs: Experiment?,
                                         _ history: [HistoryEntry], _ chosen: Set<String>) -> (Experiment?, [MergeConflict])

    /// `merge` without its equal-sides answer (the caller has compared the sides), each experiment merged by `mergeOne`:
    /// `mergeExperiment`, or a way that computes the same from the files' bytes (`WrittenMerge` in the store module).
    package static func merge(base: StoreSnapshot, ours: StoreSnapshot, theirs: StoreSnapshot, takingTheirs chosen: Set<String>,
                              by context: ChangeContext, experiments mergeOne: ExperimentMerge) -> MergeResult {
        var conflicts: [MergeConflict] = []
        var merged = ours
        merged.history = mergedHistory(base: base.history, ours: ours.history, theirs: theirs.history)

        var keys = Set(base.experiments.keys)
        keys.formUnion(ours.experiments.keys)
        keys.formUnion(theirs.experiments.keys)
        var experiments: [String: Experiment] = [:]
        experiments.reserveCapacity(keys.count)
        for key in keys.sorted() {
            let (experiment, found) = mergeOne(base.experiments[key], ours.experiments[key], theirs.experiments[key], merged.history, chosen)
            experiments[key] = experiment
            conflicts += found
        }
        merged.experiments = experiments
        for entry in revertEntries(base: base, sides: [ours, theirs], merged: experiments, by: context) {
            merged.history.insertInTimeOrder(entry)
        }

        var fields: [String: JSONValue] = [:]
        for name in Set(base.unknownFields.keys).union(ours.unknownFields.keys).union(theirs.unknownFields.keys).sorted() {
            let pick = merge3(base.unknownFields[name], ours.unknownFields[name], theirs.unknownFields[name])
            fields[name] = pick.value
            if pick.conflict {
                let conflict = MergeConflict(experiment: nil, unit: .field, field: name, base: base.unknownFields[name]?.compactText,
                                             ours: ours.unknownFields[name]?.compactText, theirs: theirs.unknownFields[name]?.compactText)
                conflicts.append(conflict)
                if chosen.contains(conflict.id) { fields[name] = theirs.unknownFields[name] }
            }
        }
        merged.unknownFields = fields

        let oursChanged = ours.revision != base.revision, theirsChanged = theirs.revision != base.revision
        merged.revision = oursChanged && theirsChanged ? max(ours.revision, theirs.revision) + 1 : (theirsChanged ? theirs.revision : ours.revision)
        return MergeResult(snapshot: merged, conflicts: conflicts)
    }

    /// Rule 4: every entry of OURS, THEIRS and BASE once (an entry a side holds several times, as many
    /// times as the side holding it most), in time order: a stable sort by `at` of OURS's entries,
    /// then THEIRS's that OURS lacks, then BASE's that both lack. BASE need not be a prefix of either side.
    package static func mergedHistory(base: [HistoryEntry], ours: [HistoryEntry], theirs: [HistoryEntry]) -> [HistoryEntry] {
        // The entries all three share at their start need no counting: each appears there on every side.
        var shared = zip(ours, theirs).prefix { $0 == $1 }.count
        if !base.starts(with: ours[..<min(base.count, shared)]) { shared = 0 }
        var counts: [HistoryEntry: Int] = [:]
        for entry in ours[shared...] { counts[entry, default: 0] += 1 }
        var history = ours
        var added = false
        for side in [theirs[shared...], base[min(base.count, shared)...]] {
            var seen: [HistoryEntry: Int] = [:]
            for entry in side {
                seen[entry, default: 0] += 1
                if seen[entry, default: 0] > counts[entry, default: 0] {
                    counts[entry] = seen[entry]
                    history.append(entry)
                    added = true
                }
            }
        }
        guard added else { return ours }
        if zip(history, history.dropFirst()).allSatisfy({ $0.at <= $1.at }) { return history }
        return history.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// Rule 4: where the merged store took a side's value of a unit that differs from BASE's and that
    /// side holds no entry for the experiment that BASE lacks (a revert, or a change made without
    /// one), an entry saying so: action `revert`, BASE's value → the taken one in the history's words,
    /// written by the merge (`byMerge`) as `context`'s operator at its time. One per unit, in key order.
    package static func revertEntries(base: StoreSnapshot, sides: [StoreSnapshot], merged: [String: Experiment],
                                      by context: ChangeContext) -> [HistoryEntry] {
        var entries: [HistoryEntry] = [], written: Set<StoreChange> = []
        for side in sides {
            let unexplained = unexplainedExperiments(base: base, side: side)
            for key in unexplained {
                let taken = Set(StoreDiff.unitChanges(key, old: base.experiments[key], new: side.experiments[key]))
                for change in StoreDiff.unitChanges(key, old: base.experiments[key], new: merged[key])
                where taken.contains(change) && written.insert(change).inserted {
                    // An empty value (a description set back to none) reads `description ""`, not a dangling word.
                    func words(_ value: String) -> String { "\(change.action) " + (value.isEmpty ? "\"\"" : value) }
                    var entry = HistoryEntry(at: context.now, operatorName: context.operatorName, experiment: key, action: .revert,
                                             before: change.before.map(words), after: change.after.map(words))
                    entry.byMerge = true
                    entries.append(entry)
                }
            }
        }
        return entries
    }

    /// The experiments `side` holds differently from BASE (or only one of them holds) without an
    /// entry for them that BASE lacks, in key order: those whose value `revertEntries` must explain.
    static func unexplainedExperiments(base: StoreSnapshot, side: StoreSnapshot) -> [String] {
        let changed = Set(base.experiments.keys).union(side.experiments.keys).filter { base.experiments[$0] != side.experiments[$0] }
        if changed.isEmpty { return [] }
        return changed.subtracting(explainedExperiments(base: base.history, side: side.history)).sorted()
    }

    /// The experiments `side`'s history has an entry for that BASE's lacks.
    package static func explainedExperiments(base: [HistoryEntry], side: [HistoryEntry]) -> Set<String> {
        let known = Set(base)
        var explained: Set<String> = []
        for entry in side where !known.contains(entry) { explained.insert(entry.experiment) }
        return explained
    }

    /// What the merge decided for one experiment: its merged value (nil: absent or deleted), its
    /// conflicts, and the side whose value it took whole (nil: merged unit by unit, `mergeUnits`).
    package struct ExperimentDecision {
        package var experiment: Experiment?
        package var conflicts: [MergeConflict]
        package var taken: Side?
    }

    /// One experiment by key (nil: absent or deleted). Two sides are compared by `sameValue`
    /// (nil: their values); a way that answers the same from other evidence (`WrittenMerge`: the
    /// files' bytes) decides as the values would, and learns which side to copy from `taken`.
    package static func mergeExperiment(base: Experiment?, ours: Experiment?, theirs: Experiment?, history: [HistoryEntry],
                                        chosen: Set<String> = [], sameValue: ((Side, Side) -> Bool)? = nil) -> ExperimentDecision {
        let values = [base, ours, theirs]
        if let side = unchangedSide(sameValue ?? { values[$0.rawValue] == values[$1.rawValue] }) {
            return ExperimentDecision(experiment: values[side.rawValue], conflicts: [], taken: side)
        }
        guard let ours, let theirs else {
            // Deleted on one side (a draft), changed on the other (rule 3): OURS's stays.
            let key = base?.key ?? ours?.key ?? theirs?.key ?? ""
            let conflict = MergeConflict(experiment: key, unit: .existence, base: base.map(MergeWords.allocation),
                                         ours: ours.map(MergeWords.allocation), theirs: theirs.map(MergeWords.allocation),
                                         changes: theirs.map { [MergeWords.createChange($0)] } ?? [.delete(experiment: key)])
            let side: Side = chosen.contains(conflict.id) ? .theirs : .ours
            return ExperimentDecision(experiment: values[side.rawValue], conflicts: [conflict], taken: side)
        }
        let (merged, conflicts) = mergeUnits(base: base, ours: ours, theirs: theirs, history: history, chosen: chosen)
        return ExperimentDecision(experiment: merged, conflicts: conflicts, taken: nil)
    }

    /// An experiment changed on both sides, unit by unit (created on both: against an empty base).
    package static func mergeUnits(base: Experiment?, ours: Experiment, theirs: Experiment, history: [HistoryEntry],
                           chosen: Set<String> = []) -> (Experiment, [MergeConflict]) {
        let key = ours.key
        var conflicts: [MergeConflict] = []
        var merged = ours

        var allocation = merge3(base.map(Allocation.init), Allocation(ours), Allocation(theirs))
        if allocation.conflict {
            let conflict = MergeConflict(experiment: key, unit: .allocation, base: base.map(MergeWords.allocation),
                                         ours: MergeWords.allocation(ours), theirs: MergeWords.allocation(theirs),
                                         changes: MergeWords.allocationChanges(ours: ours, theirs: theirs), order: theirs.variants.map(\.name))
            conflicts.append(conflict)
            if chosen.contains(conflict.id) { allocation.value = Allocation(theirs) }
        }
        let shape = allocation.value ?? Allocation(ours)
        merged.type = shape.type
        merged.salt = shape.salt
        merged.control = shape.control
        merged.status = shape.status
        merged.winner = shape.winner

        let description = merge3(base?.description, ours.description, theirs.description)
        merged.description = description.value ?? ours.description
        if description.conflict {
            let conflict = MergeConflict(experiment: key, unit: .description, base: base?.description, ours: ours.description,
                                         theirs: theirs.description, changes: [.setDescription(experiment: key, description: theirs.description)])
            conflicts.append(conflict)
            if chosen.contains(conflict.id) { merged.description = theirs.description }
        }

        let metrics = merge3(base?.metrics, ours.metrics, theirs.metrics)
        merged.metrics = metrics.value ?? ours.metrics
        if metrics.conflict {
            let conflict = MergeConflict(experiment: key, unit: .metrics, base: base.map { MergeWords.metrics($0.metrics) },
                                         ours: MergeWords.metrics(ours.metrics), theirs: MergeWords.metrics(theirs.metrics),
                                         changes: MergeWords.metricsChanges(key: key, theirs.metrics))
            conflicts.append(conflict)
            if chosen.contains(conflict.id) { merged.metrics = theirs.metrics }
        }

        // The ramp plan is one unit (§14): its steps, options, step, state and last decision together.
        let plan = merge3(base?.plan, ours.plan, theirs.plan)
        merged.plan = plan.value  // nil: no plan (cleared on a side), not "undecided"
        if plan.conflict {
            let conflict = MergeConflict(experiment: key, unit: .plan, base: base.map(MergeWords.plan), ours: MergeWords.plan(ours),
                                         theirs: MergeWords.plan(theirs), changes: MergeWords.planChanges(key: key, theirs), order: theirs.variants.map(\.name))
            conflicts.append(conflict)
            if chosen.contains(conflict.id) { merged.plan = theirs.plan }
        }

        merged.variants = shape.variants.map { shaped in
            var variant = Variant(name: shaped.name, weight: shaped.weight, ranges: shaped.ranges)
            let name = shaped.name
            let (b, o, t) = (base?.variant(named: name), ours.variant(named: name), theirs.variant(named: name))
            let payload = merge3(b?.payload, o?.payload, t?.payload)
            variant.payload = payload.value
            if payload.conflict {
                let conflict = MergeConflict(experiment: key, unit: .payload, variant: name, base: b?.payload?.compactText,
                                             ours: o?.payload?.compactText, theirs: t?.payload?.compactText,
                                             changes: MergeWords.payloadChanges(key: key, variant: name, theirs: t?.payload))
                conflicts.append(conflict)
                if chosen.contains(conflict.id) { variant.payload = t?.payload }
            }
            let (fields, found) = mergeFields(b?.unknownFields ?? [:], o?.unknownFields ?? [:], t?.unknownFields ?? [:],
                                              experiment: key, variant: name, chosen: chosen)
            variant.unknownFields = fields
            conflicts += found
            return variant
        }

        let (fields, found) = mergeFields(base?.unknownFields ?? [:], ours.unknownFields, theirs.unknownFields, experiment: key, variant: nil,
                                          chosen: chosen)
        merged.unknownFields = fields
        conflicts += found

        merged.whitelist = mergeWhitelist(base: base?.whitelist ?? [:], ours: ours.whitelist, theirs: theirs.whitelist,
                                          experiment: key, variants: Set(shape.variants.map(\.name)), conflicts: &conflicts, chosen: chosen)

        merged.revision = max(ours.revision, theirs.revision) + 1
        if let latest = history.last(where: { $0.experiment == key }), latest.at >= max(ours.updatedAt, theirs.updatedAt) {
            (merged.updatedAt, merged.updatedBy) = (latest.at, latest.operatorName)
        } else if theirs.updatedAt > ours.updatedAt {
            (merged.updatedAt, merged.updatedBy) = (theirs.updatedAt, theirs.updatedBy)
        }
        return (merged, conflicts)
    }

    /// Whitelist entries by subject: variant, note and unknown fields compared, `added_at`/`added_by`
    /// following the side whose entry is taken. An entry naming a variant the merged allocation lacks
    /// (a clean merge breaking a rule, rule 6) is a conflict and keeps OURS's.
    package static func mergeWhitelist(base: [SubjectID: WhitelistEntry], ours: [SubjectID: WhitelistEntry], theirs: [SubjectID: WhitelistEntry],
                               experiment key: String, variants: Set<String>, conflicts: inout [MergeConflict],
                               chosen: Set<String> = []) -> [SubjectID: WhitelistEntry] {
        // One pass over THEIRS's changes (the subjects whose entry THEIRS changed, added or removed):
        // every other subject keeps OURS's entry, so no set of all subjects is built.
        var merged = ours
        var found: [MergeConflict] = []
        func settle(_ subject: SubjectID, _ t: WhitelistEntry?) {
            let (b, o) = (base[subject], ours[subject])
            if o == t { return }
            if o == b { merged[subject] = t; return }
            let (unitBase, unitOurs, unitTheirs) = (b.map(EntryUnit.init), o.map(EntryUnit.init), t.map(EntryUnit.init))
            if unitOurs == unitTheirs || unitTheirs == unitBase { return }
            if unitOurs == unitBase { merged[subject] = t; return }
            let conflict = whitelistConflict(key: key, base: b, ours: o, theirs: t)
            found.append(conflict)
            if chosen.contains(conflict.id) { merged[subject] = t }
        }
        for (subject, entry) in theirs where base[subject] != entry { settle(subject, entry) }
        for subject in base.keys where theirs[subject] == nil { settle(subject, nil) }
        // Rule 6: an entry into a variant the merged allocation lacks keeps OURS's entry (or none).
        for (subject, entry) in merged where !variants.contains(entry.variant) {
            let o = ours[subject]
            merged[subject] = o.flatMap { variants.contains($0.variant) ? $0 : nil }
            found.append(whitelistConflict(key: key, base: base[subject], ours: o, theirs: theirs[subject]))
        }
        // Dictionaries iterate in a per-process order: the conflicts are listed by subject.
        conflicts += found.sorted { SubjectOrder.precedes($0.subject ?? "", $1.subject ?? "") }
        return merged
    }

    private static func whitelistConflict(key: String, base: WhitelistEntry?, ours: WhitelistEntry?, theirs: WhitelistEntry?) -> MergeConflict {
        let subject = (ours ?? theirs ?? base)?.subject ?? ""
        return MergeConflict(experiment: key, unit: .whitelist, subject: subject, base: MergeWords.entry(base), ours: MergeWords.entry(ours),
                             theirs: MergeWords.entry(theirs),
                             changes: MergeWords.whitelistChanges(key: key, subject: subject, ours: ours, theirs: theirs))
    }

    /// Unknown fields by name (rule 7); changed differently on both sides, a `field` conflict.
    static func mergeFields(_ base: [String: JSONValue], _ ours: [String: JSONValue], _ theirs: [String: JSONValue],
                            experiment: String, variant: String?, chosen: Set<String> = []) -> ([String: JSONValue], [MergeConflict]) {
        if ours == theirs || theirs == base { return (ours, []) }
        if ours == base { return (theirs, []) }
        var fields: [String: JSONValue] = [:], conflicts: [MergeConflict] = []
        for name in Set(base.keys).union(ours.keys).union(theirs.keys).sorted() {
            let pick = merge3(base[name], ours[name], theirs[name])
            fields[name] = pick.value
            if pick.conflict {
                let conflict = MergeConflict(experiment: experiment, unit: .field, variant: variant, field: name,
                                             base: base[name]?.compactText, ours: ours[name]?.compactText, theirs: theirs[name]?.compactText)
                conflicts.append(conflict)
                if chosen.contains(conflict.id) { fields[name] = theirs[name] }
            }
        }
        return (fields, conflicts)
    }

    /// Rule 1 for one unit (nil: absent): the merged value, and whether both sides changed it differently (then OURS's).
    static func merge3<Value: Equatable>(_ base: Value?, _ ours: Value?, _ theirs: Value?) -> (value: Value?, conflict: Bool) {
        if ours == theirs || theirs == base { return (ours, false) }
        if ours == base { return (theirs, false) }
        return (ours, true)
    }

    /// The allocation unit: everything a ramp, start, pause, resolve, re-salt or added variant changes.
    struct Allocation: Equatable {
        struct Shape: Equatable {
            var name: String
            var weight: Weight
            var ranges: [BucketRange]
        }

        var type: SubjectType
        var salt: String
        var control: String
        var status: ExperimentStatus
        var winner: String?
        var variants: [Shape]

        init(_ experiment: Experiment) {
            type = experiment.type
            salt = experiment.salt
            control = experiment.control
            status = experiment.status
            winner = experiment.winner
            variants = experiment.variants.map { Shape(name: $0.name, weight: $0.weight, ranges: $0.ranges) }
        }
    }

    /// What a whitelist entry's unit compares: `added_at`/`added_by` follow it.
    struct EntryUnit: Equatable {
        var variant: String
        var note: String
        var unknownFields: [String: JSONValue]

        init(_ entry: WhitelistEntry) {
            variant = entry.variant
            note = entry.note
            unknownFields = entry.unknownFields
        }
    }
}
