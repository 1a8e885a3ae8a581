@testable import abconsole
import ExperimentCore
import ExperimentStore
import Foundation

/// The exports as `JSONEncoder` encodes them from whole values: the referee of the export writers.
///
/// The client snapshot is `ClientSnapshotDocument.encoded()`; the GrowthBook payload is built here as
/// one `JSONValue` from the decision table (SPEC §9) and encoded with sorted keys, slashes unescaped
/// and every `</` written `<\/`, a final newline after it.
enum ExportReference {
    /// What an export of a store gives: its bytes and warnings, or the refusal's message.
    enum Outcome {
        case exported(Data, warnings: [String])
        case refused(String)
    }

    /// The export of `keys` (all when empty) of `snapshot` in `format` (`client`, or `growthbook` serving `values`).
    static func export(_ snapshot: StoreSnapshot, keys: [String], values: GrowthBookExport.Values?) throws -> Outcome {
        var chosen = snapshot
        if !keys.isEmpty { chosen.experiments = snapshot.experiments.filter { keys.contains($0.key) } }
        guard let values else { return .exported(try ClientSnapshotDocument(chosen).encoded(), warnings: []) }
        let experiments = chosen.sortedExperiments
        do { try GrowthBookExport.refusePartialPayloads(experiments, values: values) } catch { return .refused(error.message) }
        var features: [String: JSONValue] = [:]
        for experiment in experiments { features[experiment.key] = feature(experiment, values: values) }
        var payload: [String: JSONValue] = ["features": .object(features)]
        if let updated = GrowthBookExport.lastChange(snapshot) { payload["dateUpdated"] = .string(updated) }
        return .exported(try encode(.object(payload)), warnings: warnings(experiments))
    }

    /// Compact JSON with sorted keys and a final newline, `</` written `<\/`.
    static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(value, with: encoder)) + Data("\n".utf8)
    }

    /// The warnings of `experiments`: a salt or whitelisted ids not ASCII.
    static func warnings(_ experiments: [Experiment]) -> [String] {
        experiments.compactMap { experiment in
            GrowthBookExport.warning(experiment, nonASCIIIDs: experiment.whitelist.keys.filter { !$0.text.utf8.allSatisfy { $0 < 0x80 } }.count)
        }
    }

    /// The feature of `experiment`: payloads when `values` asks for them and every variant has one, else names.
    static func feature(_ experiment: Experiment, values: GrowthBookExport.Values) -> JSONValue {
        let servesPayloads = values == .payloads && experiment.variants.allSatisfy { $0.payload != nil }
        func value(_ name: String) -> JSONValue {
            servesPayloads ? experiment.variant(named: name)?.payload ?? .null : .string(name)
        }
        var rules: [JSONValue] = []
        switch experiment.status {
        case .resolved:
            rules.append(.object(["force": value(experiment.winner ?? experiment.control)]))
        case .paused:
            rules.append(.object(["force": value(experiment.control)]))
        case .draft, .running:
            let attribute = GrowthBookExport.hashAttribute(experiment.type)
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

    /// The experiment rule: one variation per owned range, in bucket order (a lone range joined by
    /// the control over `[0, 0)`); nil when no bucket is owned.
    static func experimentRule(_ experiment: Experiment, value: (String) -> JSONValue) -> JSONValue? {
        var owned = experiment.variants.flatMap { variant in variant.ranges.map { (range: $0, name: variant.name) } }
        owned.sort { $0.range.start < $1.range.start }
        guard !owned.isEmpty else { return nil }
        if owned.count == 1 { owned.append((BucketRange(0, 0), experiment.control)) }
        func bound(_ bucket: Int) -> JSONValue { .number(JSONNumber(Double(bucket) / Double(Weight.bucketCount)) ?? 0) }
        return .object([
            "key": .string(experiment.key),
            "seed": .string(experiment.salt),
            "hashAttribute": .string(GrowthBookExport.hashAttribute(experiment.type)),
            "hashVersion": .number(2),
            "disableStickyBucketing": .bool(true),
            "variations": .array(owned.map { value($0.name) }),
            "ranges": .array(owned.map { .array([bound($0.range.start), bound($0.range.end)]) }),
            "meta": .array(owned.map { .object(["key": .string($0.name)]) }),
        ])
    }
}
