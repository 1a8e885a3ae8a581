import ExperimentCore
import Foundation

/// The `--json` shapes of SPEC §7; field names are fixed, fields may be added.
enum JSONShapes {
    /// `show --json`.
    struct ExperimentJSON: Encodable {
        let key: String, type: String, status: String, salt: String, control: String, winner: String?
        let description: String, revision: Int, createdAt: Date, updatedAt: Date, updatedBy: String
        let variants: [VariantJSON]
        let whitelist: [WhitelistJSON]

        enum CodingKeys: String, CodingKey {
            case key, type, status, salt, control, winner, description, revision, variants, whitelist
            case createdAt = "created_at", updatedAt = "updated_at", updatedBy = "updated_by"
        }

        init(_ experiment: Experiment) {
            key = experiment.key
            type = experiment.type.rawValue
            status = experiment.status.rawValue
            salt = experiment.salt
            control = experiment.control
            winner = experiment.winner
            description = experiment.description
            revision = experiment.revision
            createdAt = experiment.createdAt
            updatedAt = experiment.updatedAt
            updatedBy = experiment.updatedBy
            variants = experiment.variants.map(VariantJSON.init)
            whitelist = experiment.sortedWhitelist.map(WhitelistJSON.init)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(type, forKey: .type)
            try container.encode(status, forKey: .status)
            try container.encode(salt, forKey: .salt)
            try container.encode(control, forKey: .control)
            try container.encode(winner, forKey: .winner)
            try container.encode(description, forKey: .description)
            try container.encode(revision, forKey: .revision)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(updatedBy, forKey: .updatedBy)
            try container.encode(variants, forKey: .variants)
            try container.encode(whitelist, forKey: .whitelist)
        }
    }

    /// A variant in `show --json`: weight in percent, ranges as `[start, end]` pairs.
    struct VariantJSON: Encodable {
        let name: String
        let weight: Double
        let ranges: [[Int]]
        let payload: JSONValue

        init(_ variant: Variant) {
            name = variant.name
            weight = variant.weight.percent
            ranges = variant.ranges.map { [$0.start, $0.end] }
            payload = variant.payload ?? .null
        }
    }

    /// A whitelist entry in `show --json` and `whitelist list --json`.
    struct WhitelistJSON: Encodable {
        let subject: String, variant: String, note: String, addedBy: String, addedAt: Date

        enum CodingKeys: String, CodingKey {
            case subject, variant, note
            case addedBy = "added_by", addedAt = "added_at"
        }

        init(_ entry: WhitelistEntry) {
            subject = entry.subject
            variant = entry.variant
            note = entry.note
            addedBy = entry.addedBy
            addedAt = entry.addedAt
        }
    }

    /// A row of `list --json`.
    struct ListRowJSON: Encodable {
        let key: String, type: String, status: String, control: String, winner: String?, description: String
        let revision: Int, weights: [String: Double], whitelistCount: Int, updatedAt: Date, updatedBy: String

        enum CodingKeys: String, CodingKey {
            case key, type, status, control, winner, description, revision, weights
            case whitelistCount = "whitelist_count", updatedAt = "updated_at", updatedBy = "updated_by"
        }

        init(_ experiment: Experiment) {
            key = experiment.key
            type = experiment.type.rawValue
            status = experiment.status.rawValue
            control = experiment.control
            winner = experiment.winner
            description = experiment.description
            revision = experiment.revision
            weights = Dictionary(uniqueKeysWithValues: experiment.variants.map { ($0.name, $0.weight.percent) })
            whitelistCount = experiment.whitelist.count
            updatedAt = experiment.updatedAt
            updatedBy = experiment.updatedBy
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(type, forKey: .type)
            try container.encode(status, forKey: .status)
            try container.encode(control, forKey: .control)
            try container.encode(winner, forKey: .winner)
            try container.encode(description, forKey: .description)
            try container.encode(revision, forKey: .revision)
            try container.encode(weights, forKey: .weights)
            try container.encode(whitelistCount, forKey: .whitelistCount)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(updatedBy, forKey: .updatedBy)
        }
    }

    /// A row of `inspect --json`; `subject` and `bucket` are null when the subject is missing.
    struct DecisionJSON: Encodable {
        let experiment: String, type: String, subject: String?, bucket: Int?, variant: String, reason: String

        init(_ decision: Decision) {
            experiment = decision.experiment
            type = decision.type.rawValue
            subject = decision.subject
            bucket = decision.bucket
            variant = decision.variant
            reason = decision.reason.rawValue
        }

        enum CodingKeys: String, CodingKey { case experiment, type, subject, bucket, variant, reason }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(experiment, forKey: .experiment)
            try container.encode(type, forKey: .type)
            try container.encode(subject, forKey: .subject)
            try container.encode(bucket, forKey: .bucket)
            try container.encode(variant, forKey: .variant)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// `ramp --json`: the share that moved (0…1) and the weights after the ramp.
    struct RampJSON: Encodable {
        let movedShare: Double
        let movedBuckets: Int
        let weights: [String: Double]
        let dryRun: Bool

        enum CodingKeys: String, CodingKey {
            case weights
            case movedShare = "moved_share", movedBuckets = "moved_buckets", dryRun = "dry_run"
        }
    }

    /// A row of `history --json`.
    struct HistoryJSON: Encodable {
        let at: Date, operatorName: String, experiment: String, action: String, before: String?, after: String?

        enum CodingKeys: String, CodingKey {
            case at, experiment, action, before, after
            case operatorName = "operator"
        }

        init(_ entry: HistoryEntry) {
            at = entry.at
            operatorName = entry.operatorName
            experiment = entry.experiment
            action = entry.action.rawValue
            before = entry.before
            after = entry.after
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(at, forKey: .at)
            try container.encode(operatorName, forKey: .operatorName)
            try container.encode(experiment, forKey: .experiment)
            try container.encode(action, forKey: .action)
            try container.encode(before, forKey: .before)
            try container.encode(after, forKey: .after)
        }
    }
}
