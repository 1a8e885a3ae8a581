import ExperimentCore
import ExperimentStore
import Foundation

/// The `--json` shapes of SPEC §7 that are not the store's own encoding; field names are fixed.
///
/// `show`, `whitelist list` and `history` encode `Experiment`, `WhitelistEntry` and `HistoryEntry`
/// directly: their store encoding is exactly the SPEC shape.
enum JSONShapes {
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
}
