import ExperimentCore
import ExperimentResults
import ResultsReading
import Foundation

/// The log a post is appended to: `exposures-YYYY-MM-DD.jsonl` or `conversions-YYYY-MM-DD.jsonl`,
/// the UTC day of receipt, named as `results` finds the logs of a directory (`EventSources`).
enum ExposureDayFile {
    static func name(_ kind: ExposureIntake.Kind, receivedAt date: Date) -> String {
        let prefix = kind == .exposures ? EventSources.exposuresPrefix : EventSources.conversionsPrefix
        return prefix + UTCTimestamp.string(date).prefix(10) + ".jsonl"
    }
}
