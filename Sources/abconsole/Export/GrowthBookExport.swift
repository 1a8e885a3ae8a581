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

    /// The `{"features": {...}, "dateUpdated": T}` payload of `experiments` (all, or those named).
    ///
    /// With `values` `payloads`, each experiment whose variants all carry a payload serves them, one
    /// whose variants carry none serves names, and one with some but not all is refused.
    static func payload(_ snapshot: StoreSnapshot, experiments: [Experiment], values: Values) throws(CLIError) -> JSONValue {
        try refusePartialPayloads(experiments, values: values)
        var features: [String: JSONValue] = [:]
        for experiment in experiments { features[experiment.key] = feature(experiment, values: values) }
        var payload: [String: JSONValue] = ["features": .object(features)]
        if let updated = lastChange(snapshot) { payload["dateUpdated"] = .string(updated) }
        return .object(payload)
    }

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

    /// The feature of `experiment`: payloads when `values` asks for them and every variant has one, else names.
    static func feature(_ experiment: Experiment, values: Values) -> JSONValue {
        let servesPayloads = values == .payloads && experiment.variants.allSatisfy { $0.payload != nil }
        return feature(experiment, serving: servesPayloads ? .payloads : .names)
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

    /// The warnings `export` prints: experiments whose salt or whitelisted ids are not ASCII.
    static func warnings(_ experiments: [Experiment]) -> [String] {
        experiments.compactMap { experiment in
            warning(experiment, nonASCIIIDs: experiment.whitelist.keys.filter { !isASCII($0.text) }.count)
        }
    }

    /// The warning for `experiment` when its salt is not ASCII or `ids` of its whitelisted ids are not; nil otherwise.
    static func warning(_ experiment: Experiment, nonASCIIIDs ids: Int) -> String? {
        var parts: [String] = []
        if !isASCII(experiment.salt) { parts.append("a non-ASCII salt") }
        if ids > 0 { parts.append("\(ids) non-ASCII whitelisted id\(ids == 1 ? "" : "s")") }
        guard !parts.isEmpty else { return nil }
        return "experiment `\(experiment.key)` has \(parts.joined(separator: " and ")); GrowthBook SDKs hash and compare non-ASCII text differently from each other, so some subjects may get other variants there than from `assign`"
    }

    private static func feature(_ experiment: Experiment, serving values: Values) -> JSONValue {
        func value(_ name: String) -> JSONValue {
            switch values {
            case .names: return .string(name)
            case .payloads: return experiment.variant(named: name)?.payload ?? .null
            }
        }
        var rules: [JSONValue] = []
        switch experiment.status {
        case .resolved:
            rules.append(.object(["force": value(experiment.winner ?? experiment.control)]))
        case .paused:
            rules.append(.object(["force": value(experiment.control)]))
        case .draft, .running:
            let attribute = hashAttribute(experiment.type)
            let entries = experiment.sortedWhitelist
            for variant in experiment.variants {
                let ids = entries.filter { $0.variant == variant.name }.map { JSONValue.string($0.subject) }
                guard !ids.isEmpty else { continue }
                rules.append(.object(["condition": .object([attribute: .object(["$in": .array(ids)])]), "force": value(variant.name)]))
            }
            if experiment.status == .draft {
                rules.append(.object(["force": value(experiment.control)]))
            } else if let rule = experimentRule(experiment, value: value) {
                rules.append(rule)
            }
        }
        return .object(["defaultValue": value(experiment.control), "rules": .array(rules)])
    }

    /// The experiment rule: one variation per owned range, in bucket order; nil when no bucket is owned.
    ///
    /// SDKs skip an experiment of fewer than two variations, so a lone range gets a second entry,
    /// the control over the empty range `[0, 0)`, which no subject falls in.
    private static func experimentRule(_ experiment: Experiment, value: (String) -> JSONValue) -> JSONValue? {
        var owned = experiment.variants.flatMap { variant in variant.ranges.map { (range: $0, name: variant.name) } }
        owned.sort { $0.range.start < $1.range.start }
        guard !owned.isEmpty else { return nil }
        if owned.count == 1 { owned.append((BucketRange(0, 0), experiment.control)) }
        return .object([
            "key": .string(experiment.key),
            "seed": .string(experiment.salt),
            "hashAttribute": .string(hashAttribute(experiment.type)),
            "hashVersion": .number(2),
            "disableStickyBucketing": .bool(true),
            "variations": .array(owned.map { value($0.name) }),
            "ranges": .array(owned.map { .array([bound($0.range.start), bound($0.range.end)]) }),
            "meta": .array(owned.map { .object(["key": .string($0.name)]) }),
        ])
    }

    /// `id` buckets users, `deviceId` devices: the attributes an app sets on its GrowthBook SDK.
    static func hashAttribute(_ type: SubjectType) -> String {
        switch type {
        case .user: "id"
        case .device: "deviceId"
        }
    }

    /// A bucket bound as GrowthBook's share `k/10000`, which SDKs compare with `bucket/10000` exactly.
    private static func bound(_ bucket: Int) -> JSONValue { .number(JSONNumber(Double(bucket) / Double(Weight.bucketCount)) ?? 0) }

    private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
}
