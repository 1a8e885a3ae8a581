import ExperimentCore
import Foundation

/// A good store prepared for answering (SPEC §13): its served experiments compiled once, and each
/// variant's answer written as JSON text up front, so a request only decides and copies bytes.
///
/// Holds nothing an answer must not show: the decision is the core's one table
/// (`CompiledExperiment.decide`), and the texts carry the key, variant name and value only.
/// Nor does it hold the store: each whitelist is kept as subject to variant index inside its
/// compiled experiment (`DecidingStore`), and the intake's rules as names and statuses, so a
/// store of a million whitelist entries costs a fraction of its file (docs/serving.md, "Memory").
package struct ServedStore: Sendable {
    /// The store's revision, which `/healthz` reports.
    package let revision: Int
    /// What the exposure intake checks rows against (every experiment, drafts too); never put in an answer.
    package let rows: ExposureRules
    /// The served experiments (every status but `draft`), by key order.
    let experiments: [ServedExperiment]
    /// Index in `experiments` by key.
    let positions: [String: Int]

    /// The served store of `store`: its served experiments compiled, their answers written.
    package init(_ store: DecidingStore) {
        revision = store.revision
        rows = ExposureRules(store.experiments)
        experiments = store.experiments.filter { $0.status != .draft }.map { ServedExperiment($0, listed: store.listed[$0.key] ?? [:]) }
        positions = Dictionary(uniqueKeysWithValues: experiments.enumerated().map { ($0.element.key, $0.offset) })
    }

    /// How the served experiments hold their whitelists, summed (`CompiledExperiment.heldWhitelist`).
    package var heldWhitelist: (entries: Int, indices: Int) {
        experiments.reduce((0, 0)) { sum, experiment in
            let held = experiment.compiled.heldWhitelist
            return (sum.0 + held.entries, sum.1 + held.indices)
        }
    }

    /// The experiment served under `key`, or nil for an unknown key or a draft (`FLAG_NOT_FOUND`).
    func experiment(_ key: String) -> ServedExperiment? {
        positions[key].map { experiments[$0] }
    }

    /// The bulk answer for `subject`: `{"flags":[…]}` with every served experiment, by key order.
    func bulkAnswer(for subject: Subject) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + experiments.count * 64)
        bytes += #"{"flags":["#.utf8
        for (offset, experiment) in experiments.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += experiment.answer(for: subject)
        }
        bytes += "]}".utf8
        return Data(bytes)
    }
}

/// One served experiment: its compiled decision and, per variant and reason, the answer's JSON text.
struct ServedExperiment: Sendable {
    let key: String
    let compiled: CompiledExperiment
    /// `{"key":…,"metadata":{"subjectType":…},"reason":"SPLIT","value":…,"variant":…}` by variant index.
    let split: [[UInt8]]
    /// The same with `"reason":"DEFAULT"`: the control served for want of the subject's id.
    let fallback: [[UInt8]]

    /// `experiment` (its whitelist empty) with its whitelist as `listed`, subject to variant index.
    init(_ experiment: Experiment, listed: [SubjectID: Int32]) {
        key = experiment.key
        compiled = CompiledExperiment(experiment, listed: listed)
        // The value is the payload when every variant has one, else the variant's name (SPEC §13).
        let payloads = experiment.variants.compactMap(\.payload)
        let values = payloads.count == experiment.variants.count
            ? payloads.map(\.compactText)
            : experiment.variants.map { JSONValue.string($0.name).compactText }
        let quotedKey = JSONValue.string(experiment.key).compactText
        // Which id the experiment buckets by, so a client names that one in its exposures.
        let metadata = #"{"subjectType":"\#(experiment.type.rawValue)"}"#
        func answers(_ reason: String) -> [[UInt8]] {
            zip(experiment.variants, values).map { variant, value in
                Array(#"{"key":\#(quotedKey),"metadata":\#(metadata),"reason":"\#(reason)","value":\#(value),"variant":\#(JSONValue.string(variant.name).compactText)}"#.utf8)
            }
        }
        split = answers("SPLIT")
        fallback = answers("DEFAULT")
    }

    /// The answer's JSON text for `subject`: `DEFAULT` only where the table's reason is "no subject".
    func answer(for subject: Subject) -> [UInt8] {
        let decision = compiled.decisionIndex(forID: subject.id(for: compiled.type))
        return decision.reason == .noSubject ? fallback[decision.index] : split[decision.index]
    }
}
