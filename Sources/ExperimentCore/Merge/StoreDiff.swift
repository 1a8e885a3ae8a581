import Foundation

/// One change between two versions of the store, in the history's words.
public struct StoreChange: Hashable, Sendable {
    /// The experiment's key; nil for a store-level field.
    public var experiment: String?
    /// The history's action (`ramp`, `whitelist_add`, …), or for a change found by comparing the
    /// files themselves the unit (`allocation`, `description`, `payload`, `metrics`, `whitelist`, `existence`, `field`).
    public var action: String
    public var before: String?
    public var after: String?
    /// Who made it and when, when the history says.
    public var operatorName: String?
    public var at: Date?
    /// For a ramp or an allocation change, the share of subjects that switch variant (0…1).
    public var movedShare: Double?
}

/// The changes from one version of the store to another (`abconsole diff`), and the store in words
/// (git's `textconv`, whose line diff reads as the changes).
public enum StoreDiff {
    /// The history's new entries when OLD's history is a prefix of NEW's (each change, in order);
    /// otherwise the units that differ (an unrelated pair of files, a hand edit).
    public static func changes(old: StoreSnapshot, new: StoreSnapshot) -> [StoreChange] {
        if new.history.count > old.history.count, new.history.starts(with: old.history) {
            return new.history[old.history.count...].map(change(of:))
        }
        return unitChanges(old: old, new: new)
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
        func add(_ key: String?, _ action: String, _ before: String?, _ after: String?, share: Double? = nil) {
            changes.append(StoreChange(experiment: key, action: action, before: before, after: after, movedShare: share))
        }
        for key in Set(old.experiments.keys).union(new.experiments.keys).sorted() {
            let (o, n) = (old.experiments[key], new.experiments[key])
            guard let o, let n else {
                add(key, "existence", o.map(MergeWords.allocation), n.map(MergeWords.allocation))
                continue
            }
            if o == n { continue }
            if StoreMerge.Allocation(o) != StoreMerge.Allocation(n) {
                add(key, "allocation", MergeWords.allocation(o), MergeWords.allocation(n), share: movedShare(o, n))
            }
            if o.description != n.description { add(key, "description", o.description, n.description) }
            if o.metrics != n.metrics { add(key, "metrics", MergeWords.metrics(o.metrics), MergeWords.metrics(n.metrics)) }
            for name in Set(o.variants.map(\.name)).union(n.variants.map(\.name)).sorted() {
                let (before, after) = (o.variant(named: name)?.payload, n.variant(named: name)?.payload)
                if before != after { add(key, "payload", before.map { "\(name) \($0.compactText)" }, after.map { "\(name) \($0.compactText)" }) }
            }
            if o.whitelist != n.whitelist {
                for subject in Set(o.whitelist.keys).union(n.whitelist.keys) {
                    let (before, after) = (o.whitelist[subject], n.whitelist[subject])
                    if before != after { add(key, "whitelist", MergeWords.entry(before), MergeWords.entry(after)) }
                }
            }
            for name in Set(o.unknownFields.keys).union(n.unknownFields.keys).sorted() where o.unknownFields[name] != n.unknownFields[name] {
                add(key, "field", o.unknownFields[name].map { "\(name) \($0.compactText)" }, n.unknownFields[name].map { "\(name) \($0.compactText)" })
            }
        }
        for name in Set(old.unknownFields.keys).union(new.unknownFields.keys).sorted() where old.unknownFields[name] != new.unknownFields[name] {
            add(nil, "field", old.unknownFields[name].map { "\(name) \($0.compactText)" }, new.unknownFields[name].map { "\(name) \($0.compactText)" })
        }
        return changes
    }

    /// The store in words, one line per unit and history entry: what git's `textconv` shows, so a
    /// line diff of two versions reads as their changes.
    public static func words(_ snapshot: StoreSnapshot) -> [String] {
        var lines: [String] = []
        for experiment in snapshot.sortedExperiments {
            let key = experiment.key
            lines.append("experiment \(key): \(MergeWords.allocation(experiment))")
            if !experiment.description.isEmpty { lines.append("  \(key) description: \(experiment.description)") }
            if let metrics = experiment.metrics.summary { lines.append("  \(key) metrics: \(metrics)") }
            for variant in experiment.variants {
                lines.append("  \(key) variant \(variant.name) \(variant.weight) % owns \(variant.ranges.map { "[\($0.start),\($0.end))" }.joined(separator: " "))")
                if let payload = variant.payload { lines.append("  \(key) payload \(variant.name) \(payload.compactText)") }
            }
            for entry in experiment.sortedWhitelist { lines.append("  \(key) whitelist \(MergeWords.entry(entry) ?? "")") }
            for name in experiment.unknownFields.keys.sorted() { lines.append("  \(key) field \(name) \(experiment.unknownFields[name]?.compactText ?? "")") }
        }
        for name in snapshot.unknownFields.keys.sorted() { lines.append("field \(name) \(snapshot.unknownFields[name]?.compactText ?? "")") }
        for entry in snapshot.history {
            lines.append("history \(dateText(entry.at)) \(entry.operatorName) \(entry.action.rawValue) \(entry.experiment): \(entry.changeText)")
        }
        return lines
    }

    /// A date as the store writes it, e.g. `2026-03-01T09:30:00Z`.
    public static func dateText(_ date: Date) -> String {
        var text: [UInt8] = []
        StoreDate.format(date, into: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
