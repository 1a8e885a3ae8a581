import Foundation
import ExperimentCore

/// One exposure in the SPEC §8 format: a subject was shown a variant of an experiment at a time.
public struct Exposure: Hashable, Sendable {
    public let timestamp: Date
    public let experiment: String
    public let variant: String
    /// The id of the experiment's type (user id or device id).
    public let subject: String

    public init(timestamp: Date, experiment: String, variant: String, subject: String) {
        self.timestamp = timestamp
        self.experiment = experiment
        self.variant = variant
        self.subject = subject
    }

    /// One JSON Lines row, `{"experiment":…,"subject":…,"timestamp":"2026-11-20T10:15:02Z","variant":…}`, without the newline.
    public var jsonLine: String {
        let row = Row(experiment: experiment, subject: subject, timestamp: UTCTimestamp.string(timestamp), variant: variant)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(row)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The row as written: the keys are `ExposureField`'s, which `results` reads.
    private struct Row: Encodable {
        let experiment: String
        let subject: String
        let timestamp: String
        let variant: String

        func encode(to encoder: any Encoder) throws {
            var row = encoder.container(keyedBy: ExposureField.self)
            try row.encode(timestamp, forKey: .timestamp)
            try row.encode(experiment, forKey: .experiment)
            try row.encode(variant, forKey: .variant)
            try row.encode(subject, forKey: .subject)
        }
    }
}
