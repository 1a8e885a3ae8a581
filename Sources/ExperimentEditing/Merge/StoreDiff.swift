import ExperimentCore
import Foundation

/// One change between two versions of the store, in the history's words.
public struct StoreChange: Hashable, Sendable {
    /// The experiment's key; nil for a store-level field.
    public var experiment: String?
    /// The history's action (`ramp`, `whitelist_add`, …), or for a change found by comparing the
    /// files themselves the unit (`allocation`, `description`, `payload`, `metrics`, `plan`, `whitelist`, `existence`, `field`).
    public var action: String
    public var before: String?
    public var after: String?
    /// Who made it and when, when the history says.
    public var operatorName: String?
    public var at: Date?
    /// For a ramp or an allocation change, the share of subjects that switch variant (0…1).
    public var movedShare: Double?

    /// The change on one line, as `abconsole diff` and git's `textconv` print it:
    /// `ramp alpha: control=50,treat=50 → control=20,treat=80 (moves 30 % of subjects) by alice at …`.
    public var words: String {
        var line = "\(action) \(experiment ?? "store"): \(before ?? "∅") → \(after ?? "∅")"
        if let movedShare { line += " (moves \(Experiment.percentText(movedShare)) of subjects)" }
        if let operatorName { line += " by \(operatorName)" }
        if let at { line += " at \(StoreDiff.dateText(at))" }
        return line
    }
}

/// The changes from one version of the store to another (`abconsole diff`), and the store in words
/// (git's `textconv`, whose line diff reads as the changes).
public enum StoreDiff {
    /// NEW's history entries that OLD's lacks (each change, in NEW's order); when there are none, the
    /// units that differ (a revert, an unrelated pair of files, a hand edit). OLD's history need not
    /// be a prefix of NEW's: after a merge or a rebase it seldom is.
    public static func changes(old: StoreSnapshot, new: StoreSnapshot) -> [StoreChange] {
        let added = addedEntries(old: old.history, new: new.history)
        return added.isEmpty ? unitChanges(old: old, new: new) : added.map(change(of:))
    }

    /// NEW's entries beyond OLD's: each entry as many times as NEW holds it more often than OLD, in NEW's order.
    package static func addedEntries(old: [HistoryEntry], new: [HistoryEntry]) -> [HistoryEntry] {
        let shared = zip(old, new).prefix { $0 == $1 }.count
        var counts: [HistoryEntry: Int] = [:]
        for entry in old[shared...] { counts[entry, default: 0] += 1 }
        var added: [HistoryEntry] = []
        for entry in new[shared...] {
            if let count = counts[entry], count > 0 { counts[entry] = count - 1 } else { added.append(entry) }
        }
        return added
    }

    /// A history entry as a change; a ramp with the share it moves (the least possible, SPEC §3), when
    /// both its texts read as weights (a hand-edited text is shown as written, without a share).
    static func change(of entry: HistoryEntry) -> StoreChange {
        var share: Double?
        if entry.action == .ramp, let before = try? HistoryText.weights(of: entry, .before), let after = try? HistoryText.weights(of: entry, .after) {
            share = movedShare(buckets(before), buckets(after))
        }
        return StoreChange(experiment: entry.experiment, action: entry.action.rawValue, before: entry.before, after: entry.after,
                           operatorName: entry.operatorName, at: entry.at, movedShare: share)
    }

    /// Named weights as buckets by name.
    static func buckets(_ weights: [NamedWeight]) -> [String: Int] {
        Dictionary(weights.map { ($0.name, $0.weight.buckets) }, uniquingKeysWith: { _, last in last })
    }

    /// Σ max(0, new − old) over the variants and the unallocated pool, as a share of all buckets.
    static func movedShare(_ before: [String: Int], _ after: [String: Int]) -> Double {
        var moved = 0
        for name in Set(before.keys).union(after.keys) { moved += max(0, (after[name] ?? 0) - (before[name] ?? 0)) }
        let free = { (weights: [String: Int]) in Weight.bucketCount - weights.values.reduce(0, +) }
        moved += max(0, free(after) - free(before))
        return Double(moved) / Double(Weight.bucketCount)
    }

    /// The share of buckets whose owner differs between two allocations.
    static func movedShare(_ old: Experiment, _ new: Experiment) -> Double {
        var owner = [Int](repeating: -1, count: Weight.bucketCount)
        var names: [String] = []
        for variant in old.variants {
            names.append(variant.name)
            for range in variant.ranges { for bucket in max(0, range.start)..<min(Weight.bucketCount, max(range.start, range.end)) { owner[bucket] = names.count - 1 } }
        }
        var moved = 0
        var newOwner = [Int](repeating: -1, count: Weight.bucketCount)
        for variant in new.variants {
            let index = names.firstIndex(of: variant.name) ?? { names.append(variant.name); return names.count - 1 }()
            for range in variant.ranges { for bucket in max(0, range.start)..<min(Weight.bucketCount, max(range.start, range.end)) { newOwner[bucket] = index } }
        }
        for bucket in 0..<Weight.bucketCount where owner[bucket] != newOwner[bucket] { moved += 1 }
        return Double(moved) / Double(Weight.bucketCount)
    }

    /// The units that differ between two files, experiment by experiment.
    static func unitChanges(old: StoreSnapshot, new: StoreSnapshot) -> [StoreChange] {
        var changes: [StoreChange] = []
        for key in Set(old.experiments.keys).union(new.experiments.keys).sorted() {
            changes += unitChanges(key, old: old.experiments[key], new: new.experiments[key])
        }
        for name in Set(old.unknownFields.keys).union(new.unknownFields.keys).sorted() where old.unknownFields[name] != new.unknownFields[name] {
            changes.append(StoreChange(experiment: nil, action: "field", before: old.unknownFields[name].map { "\(name) \($0.compactText)" },
                                       after: new.unknownFields[name].map { "\(name) \($0.compactText)" }))
        }
        return changes
    }

    /// The units of experiment `key` that differ between two versions (nil: absent), each in the
    /// history's words with the unit as its action; whitelist entries by subject.
    static func unitChanges(_ key: String, old o: Experiment?, new n: Experiment?) -> [StoreChange] {
        var changes: [StoreChange] = []
        func add(_ action: String, _ before: String?, _ after: String?, share: Double? = nil) {
            changes.append(StoreChange(experiment: key, action: action, before: before, after: after, movedShare: share))
        }
        guard let o, let n else {
            if o != nil || n != nil { add("existence", o.map(MergeWords.allocation), n.map(MergeWords.allocation)) }
            return changes
        }
        if o == n { return changes }
        if StoreMerge.Allocation(o) != StoreMerge.Allocation(n) {
            add("allocation", MergeWords.allocation(o), MergeWords.allocation(n), share: movedShare(o, n))
        }
        if o.description != n.description { add("description", o.description, n.description) }
        if o.metrics != n.metrics { add("metrics", MergeWords.metrics(o.metrics), MergeWords.metrics(n.metrics)) }
        if o.plan != n.plan { add("plan", MergeWords.plan(o), MergeWords.plan(n)) }
        for name in Set(o.variants.map(\.name)).union(n.variants.map(\.name)).sorted() {
            let (before, after) = (o.variant(named: name)?.payload, n.variant(named: name)?.payload)
            if before != after { add("payload", before.map { "\(name) \($0.compactText)" }, after.map { "\(name) \($0.compactText)" }) }
        }
        if o.whitelist != n.whitelist {
            for subject in Set(o.whitelist.keys).union(n.whitelist.keys).sorted() {
                let (before, after) = (o.whitelist[subject], n.whitelist[subject])
                if before != after { add("whitelist", MergeWords.entry(before), MergeWords.entry(after)) }
            }
        }
        for name in Set(o.unknownFields.keys).union(n.unknownFields.keys).sorted() where o.unknownFields[name] != n.unknownFields[name] {
            add("field", o.unknownFields[name].map { "\(name) \($0.compactText)" }, n.unknownFields[name].map { "\(name) \($0.compactText)" })
        }
        return changes
    }

    /// The store in words, one line per unit and history entry (what the entry did, a ramp with the
    /// share of subjects it moved): what git's `textconv` shows, so a line diff of two versions reads as their changes.
    public static func words(_ snapshot: StoreSnapshot) -> [String] {
        var lines: [String] = []
        for experiment in snapshot.sortedExperiments {
            let key = experiment.key
            lines.append("experiment \(key): \(MergeWords.allocation(experiment))")
            if !experiment.description.isEmpty { lines.append("  \(key) description: \(experiment.description)") }
            if let metrics = experiment.metrics.summary { lines.append("  \(key) metrics: \(metrics)") }
            if experiment.plan != nil { lines.append("  \(key) plan: \(MergeWords.plan(experiment))") }
            for variant in experiment.variants {
                lines.append("  \(key) variant \(variant.name) \(variant.weight) % owns \(variant.ranges.map { "[\($0.start),\($0.end))" }.joined(separator: " "))")
                if let payload = variant.payload { lines.append("  \(key) payload \(variant.name) \(payload.compactText)") }
            }
            for entry in experiment.sortedWhitelist { lines.append("  \(key) whitelist \(MergeWords.entry(entry) ?? "")") }
            for name in experiment.unknownFields.keys.sorted() { lines.append("  \(key) field \(name) \(experiment.unknownFields[name]?.compactText ?? "")") }
        }
        for name in snapshot.unknownFields.keys.sorted() { lines.append("field \(name) \(snapshot.unknownFields[name]?.compactText ?? "")") }
        for entry in snapshot.history { lines.append("history " + change(of: entry).words) }
        return lines
    }

    /// A date as the store writes it, e.g. `2026-03-01T09:30:00Z`.
    public static func dateText(_ date: Date) -> String {
        var text: [UInt8] = []
        StoreDate.format(date, into: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
