import ExperimentCore
import Foundation

/// The server's answers for one context (a bulk evaluation): what `value(for:)` answers from in
/// remote mode, and what is cached, with the answer's validators, for the next launch.
struct RemoteAnswers: Hashable, Sendable, Codable {
    /// The bulk endpoint asked, and the context asked for.
    let endpoint: String
    let context: EvaluationContext
    let validators: SnapshotFetcher.Validators
    /// Each served experiment's answer, by key.
    let flags: [String: Flag]

    /// One experiment's answer: the variant, its value (the payload, or the variant's name when
    /// the experiment has no payloads) and OFREP's reason (`SPLIT`, or `DEFAULT` for the control
    /// served for want of a subject), and which id the experiment buckets by when the answer's
    /// `metadata.subjectType` says (`abconsole serve` always does).
    struct Flag: Hashable, Sendable, Codable {
        let variant: String
        let value: JSONValue
        let reason: String
        let subjectType: SubjectType?

        /// What the variant offers a key. The value is the payload unless it is the variant's own
        /// name; the answer marks the control only when it says `DEFAULT`.
        var content: VariantContent {
            VariantContent(name: variant, isControl: reason == "DEFAULT", payload: value == .string(variant) ? nil : value)
        }
    }

    /// The file beside the snapshot cache where the answers are kept for the next launch.
    static func cacheURL(_ snapshotCache: URL) -> URL { URL(fileURLWithPath: snapshotCache.path + ".remote.json") }

    /// The answers in a bulk evaluation's body (`{"flags":[…]}`); a flag the server could not
    /// evaluate (an `errorCode` instead of a value) is left out, so its key serves the app's default.
    /// Nil when the body is no bulk evaluation.
    static func decode(_ data: Data, endpoint: String, context: EvaluationContext, validators: SnapshotFetcher.Validators) -> RemoteAnswers? {
        do {
            let body = try JSONDecoder().decode(Body.self, from: data)
            var flags: [String: Flag] = [:]
            for item in body.flags {
                guard let key = item.key, let variant = item.variant, let value = item.value, item.errorCode == nil else { continue }
                let subjectType = item.metadata?["subjectType"].flatMap { value in
                    if case .string(let text) = value { SubjectType(rawValue: text) } else { nil }
                }
                flags[key] = Flag(variant: variant, value: value, reason: item.reason ?? "UNKNOWN", subjectType: subjectType)
            }
            return RemoteAnswers(endpoint: endpoint, context: context, validators: validators, flags: flags)
        } catch {
            return nil
        }
    }

    /// The answers saved at `url`, or nil when there are none or they do not read.
    static func read(_ url: URL) -> RemoteAnswers? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(RemoteAnswers.self, from: data)
    }

    /// The answers as saved to the cache.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// A bulk evaluation's body, read leniently: items are successes or failures.
    private struct Body: Decodable {
        let flags: [Item]
        struct Item: Decodable {
            let key: String?
            let variant: String?
            let value: JSONValue?
            let reason: String?
            let errorCode: String?
            let metadata: [String: JSONValue]?
        }
    }
}
