import Foundation

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
        let row = Row(experiment: experiment, subject: subject, timestamp: RFC3339.string(timestamp), variant: variant)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(row)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private struct Row: Encodable {
        let experiment: String
        let subject: String
        let timestamp: String
        let variant: String
    }
}

/// RFC 3339 times in UTC with whole seconds, e.g. `2026-11-20T10:15:02Z`.
enum RFC3339 {
    static func string(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let value = value ?? 0; return value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.year ?? 1970)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }
}
