import ExperimentCore

/// The unit a merge conflict names, read from and copied between stores (SPEC §11's units, as
/// `StoreMerge` compares them).
enum ConflictUnit {
    /// Whether `a` and `b` hold the same value of `conflict`'s unit.
    static func same(_ conflict: MergeConflict, _ a: StoreSnapshot, _ b: StoreSnapshot) -> Bool {
        let key = conflict.experiment ?? ""
        let (x, y) = (a.experiments[key], b.experiments[key])
        switch conflict.unit {
        case .existence: return (x == nil) == (y == nil)
        case .allocation: return x.map(StoreMerge.Allocation.init) == y.map(StoreMerge.Allocation.init)
        case .description: return x?.description == y?.description
        case .metrics: return x?.metrics == y?.metrics
        case .plan: return x?.plan == y?.plan
        case .payload:
            let name = conflict.variant ?? ""
            return x?.variant(named: name)?.payload == y?.variant(named: name)?.payload
        case .whitelist:
            let subject = SubjectID(conflict.subject ?? "")
            return x?.whitelist[subject].map(StoreMerge.EntryUnit.init) == y?.whitelist[subject].map(StoreMerge.EntryUnit.init)
        case .field:
            return field(conflict, a) == field(conflict, b)
        }
    }

    /// Sets `conflict`'s unit in `target` to `source`'s value of it (a whitelist entry with its `added_at`/`added_by`).
    static func copy(_ conflict: MergeConflict, from source: StoreSnapshot, into target: inout StoreSnapshot) {
        let key = conflict.experiment ?? ""
        guard conflict.unit != .existence else {
            target.experiments[key] = source.experiments[key]
            return
        }
        if conflict.experiment == nil, conflict.unit == .field {
            target.unknownFields[conflict.field ?? ""] = source.unknownFields[conflict.field ?? ""]
            return
        }
        guard let from = source.experiments[key], var to = target.experiments[key] else { return }
        switch conflict.unit {
        case .allocation:
            (to.type, to.salt, to.control, to.status, to.winner) = (from.type, from.salt, from.control, from.status, from.winner)
            to.variants = from.variants.map { shaped in
                var variant = to.variant(named: shaped.name) ?? shaped  // a variant new to the file comes with its payload
                (variant.weight, variant.ranges) = (shaped.weight, shaped.ranges)
                return variant
            }
        case .description: to.description = from.description
        case .metrics: to.metrics = from.metrics
        case .plan: to.plan = from.plan
        case .payload:
            let name = conflict.variant ?? ""
            if let index = to.variants.firstIndex(where: { $0.name == name }) { to.variants[index].payload = from.variant(named: name)?.payload }
        case .whitelist:
            let subject = SubjectID(conflict.subject ?? "")
            to.whitelist[subject] = from.whitelist[subject]
        case .field:
            let name = conflict.field ?? ""
            if let variantName = conflict.variant {
                if let index = to.variants.firstIndex(where: { $0.name == variantName }) {
                    to.variants[index].unknownFields[name] = from.variant(named: variantName)?.unknownFields[name]
                }
            } else {
                to.unknownFields[name] = from.unknownFields[name]
            }
        case .existence: break
        }
        target.experiments[key] = to
    }

    /// The unknown field a `field` conflict names (store, experiment or variant level).
    private static func field(_ conflict: MergeConflict, _ store: StoreSnapshot) -> JSONValue? {
        let name = conflict.field ?? ""
        guard let key = conflict.experiment else { return store.unknownFields[name] }
        let experiment = store.experiments[key]
        if let variant = conflict.variant { return experiment?.variant(named: variant)?.unknownFields[name] }
        return experiment?.unknownFields[name]
    }
}

/// What the history records for one choice on the conflicts screen.
struct SettlementEntry: Equatable {
    var action: HistoryAction
    var before: String?
    var after: String?

    /// Keeping OURS: a `keep` entry from THEIRS's declined words to OURS's kept ones.
    static func kept(_ conflict: MergeConflict) -> SettlementEntry {
        SettlementEntry(action: .keep, before: conflict.theirs, after: conflict.ours)
    }

    /// Taking THEIRS: the entries the CLI records for the change from OURS's value to THEIRS's
    /// (none for a field this version does not know: no change names it).
    static func taken(_ conflict: MergeConflict, ours: StoreSnapshot, theirs: StoreSnapshot) -> [SettlementEntry] {
        let key = conflict.experiment ?? ""
        let (o, t) = (ours.experiments[key], theirs.experiments[key])
        switch conflict.unit {
        case .allocation:
            guard let o, let t else { return [] }
            return allocation(from: o, to: t)
        case .existence:
            if let t { return [SettlementEntry(action: .create, before: nil, after: HistoryText.format(.statusWeights(t.status, t.namedWeights)))] }
            return o.map { [SettlementEntry(action: .delete, before: HistoryText.format(.statusWeights($0.status, $0.namedWeights)), after: nil)] } ?? []
        case .description:
            return [SettlementEntry(action: .setDescription, before: o?.description, after: t?.description)]
        case .metrics:
            return [SettlementEntry(action: .setMetrics, before: o?.metrics.summary, after: t?.metrics.summary)]
        case .plan:
            let words = { (experiment: Experiment?) in experiment?.plan?.summary(order: experiment?.variants.map(\.name) ?? []) }
            return [SettlementEntry(action: t?.plan == nil ? .planClear : .planSet, before: words(o), after: words(t))]
        case .payload:
            let name = conflict.variant ?? ""
            let words = { (experiment: Experiment?) in experiment?.variant(named: name)?.payload.map { "\(name) \($0.compactText)" } }
            return [SettlementEntry(action: .setPayload, before: words(o), after: words(t))]
        case .whitelist:
            let subject = SubjectID(conflict.subject ?? "")
            let (before, after) = (o?.whitelist[subject]?.historyText, t?.whitelist[subject]?.historyText)
            return [SettlementEntry(action: after == nil ? .whitelistRemove : .whitelistAdd, before: before, after: after)]
        case .field:
            return []
        }
    }

    /// The allocation from `o` to `t` as the CLI's changes, in the order its commands would make
    /// them: added variants, a ramp, a re-salt, a status change; a ramp when only the layout, the
    /// type or the control differ (the allocation changed as a whole).
    static func allocation(from o: Experiment, to t: Experiment) -> [SettlementEntry] {
        var entries: [SettlementEntry] = []
        var weights = o.namedWeights
        for variant in t.variants where o.variant(named: variant.name) == nil {
            let added = NamedWeight(name: variant.name, weight: .zero)
            weights.append(added)
            entries.append(SettlementEntry(action: .addVariant, before: nil, after: HistoryText.format(.weights([added]))))
        }
        let ramp = SettlementEntry(action: .ramp, before: HistoryText.format(.weights(weights)), after: HistoryText.format(.weights(t.namedWeights)))
        if weights != t.namedWeights { entries.append(ramp) }
        if o.salt != t.salt { entries.append(SettlementEntry(action: .resalt, before: o.salt, after: t.salt)) }
        if o.status != t.status || o.winner != t.winner {
            let (before, after) = (HistoryText.format(.status(o.status)), HistoryText.format(.status(t.status)))
            switch t.status {
            case .running: entries.append(SettlementEntry(action: .start, before: before, after: after))
            case .paused: entries.append(SettlementEntry(action: .pause, before: before, after: after))
            case .resolved:
                entries.append(SettlementEntry(action: .resolve, before: HistoryText.format(.statusWeights(o.status, t.namedWeights)),
                                               after: HistoryText.format(.resolved(winner: t.winner ?? t.control, forcedPast: nil))))
            case .draft: break
            }
        }
        return entries.isEmpty ? [ramp] : entries
    }
}
