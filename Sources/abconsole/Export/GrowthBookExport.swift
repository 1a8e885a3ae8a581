import ExperimentCore

/// The GrowthBook SDK payload of a store (SPEC §9): one feature per experiment whose rules give
/// every ASCII subject the variant `assign` gives it.
///
/// Rules follow the decision table: resolved and paused experiments force one value; whitelisted
/// subjects are forced by an `$in` condition before anything else; a draft then forces the
/// control; a running experiment ends with an experiment rule over explicit ranges (hash version 2,
/// sticky bucketing off), and unallocated buckets fall through to `defaultValue`, the control.
enum GrowthBookExport {
    /// What a variation's value is: the variant name, or its JSON payload.
    enum Values: String, CaseIterable { case names, payloads }

    /// The refusal of `--values payloads` when an experiment has payloads on some variants but not all.
    static func refusePartialPayloads(_ experiments: [Experiment], values: Values) throws(CLIError) {
        if values == .payloads {
            let partial = experiments.compactMap { experiment -> String? in
                let missing = experiment.variants.filter { $0.payload == nil }.map(\.name)
                guard !missing.isEmpty, missing.count < experiment.variants.count else { return nil }
                return "`\(experiment.key)` has none on \(missing.map { "`\($0)`" }.joined(separator: ", "))"
            }
            if !partial.isEmpty {
                throw CLIError.data("--values payloads serves an experiment's payloads only when every variant has one (or its names when none has): \(partial.joined(separator: "; ")); set the missing ones with `abconsole set-payload`, or export --values names")
            }
        }
    }

    /// Whether `experiment` serves its payloads: when `values` asks for them and every variant has one, else its names.
    static func servesPayloads(_ experiment: Experiment, values: Values) -> Bool {
        values == .payloads && experiment.variants.allSatisfy { $0.payload != nil }
    }

    /// The time of the store's latest change (`2026-03-01T09:30:00Z`), so a host can tell a stale
    /// copy; nil for a store that was never changed.
    static func lastChange(_ snapshot: StoreSnapshot) -> String? {
        let dates = snapshot.history.map(\.at) + snapshot.experiments.values.map(\.updatedAt)
        guard let latest = dates.max() else { return nil }
        var text: [UInt8] = []
        StoreDate.format(latest, into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The warning for `experiment` when its salt is not ASCII or `ids` of its whitelisted ids are not; nil otherwise.
    static func warning(_ experiment: Experiment, nonASCIIIDs ids: Int) -> String? {
        var parts: [String] = []
        if !isASCII(experiment.salt) { parts.append("a non-ASCII salt") }
        if ids > 0 { parts.append("\(ids) non-ASCII whitelisted id\(ids == 1 ? "" : "s")") }
        guard !parts.isEmpty else { return nil }
        return "experiment `\(experiment.key)` has \(parts.joined(separator: " and ")); GrowthBook SDKs hash and compare non-ASCII text differently from each other, so some subjects may get other variants there than from `assign`"
    }

    /// One rule of a feature, in the order they are tried.
    enum Rule {
        /// Every subject gets the variant named.
        case force(String)
        /// The subjects whitelisted into the variant (by index) get it (an `$in` condition).
        case whitelisted(variant: Int)
        /// The experiment rule: one variation per owned range, in bucket order.
        case experiment([(range: BucketRange, variant: String)])
    }

    /// The rules of `experiment`'s feature, `listed` saying whether a variant (by index) whitelists anyone.
    ///
    /// SDKs skip an experiment of fewer than two variations, so a lone range gets a second entry,
    /// the control over the empty range `[0, 0)`, which no subject falls in; a running experiment
    /// that owns no bucket has no experiment rule.
    static func rules(_ experiment: Experiment, listed: (Int) -> Bool) -> [Rule] {
        switch experiment.status {
        case .resolved: return [.force(experiment.winner ?? experiment.control)]
        case .paused: return [.force(experiment.control)]
        case .draft, .running:
            var rules = experiment.variants.indices.filter(listed).map { Rule.whitelisted(variant: $0) }
            if experiment.status == .draft { return rules + [.force(experiment.control)] }
            var owned = experiment.variants.flatMap { variant in variant.ranges.map { (range: $0, variant: variant.name) } }
            owned.sort { $0.range.start < $1.range.start }
            guard !owned.isEmpty else { return rules }
            if owned.count == 1 { owned.append((BucketRange(0, 0), experiment.control)) }
            rules.append(.experiment(owned))
            return rules
        }
    }

    /// `id` buckets users, `deviceId` devices: the attributes an app sets on its GrowthBook SDK.
    static func hashAttribute(_ type: SubjectType) -> String {
        switch type {
        case .user: "id"
        case .device: "deviceId"
        }
    }

    /// A bucket bound as GrowthBook's share `k/10000`, which SDKs compare with `bucket/10000` exactly.
    static func bound(_ bucket: Int) -> JSONNumber { JSONNumber(Double(bucket) / Double(Weight.bucketCount)) ?? 0 }

    private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
}
