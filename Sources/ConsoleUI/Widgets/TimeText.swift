import Foundation

/// Dates as the console shows them, always in UTC so screens do not depend on the machine.
enum TimeText {
    /// `2026-07-22 10:00`.
    static func short(_ date: Date) -> String {
        String(date.formatted(.iso8601).prefix(16).map { $0 == "T" ? " " : $0 })
    }

    /// `12:00:05`: the time of day, for the message log.
    static func clock(_ date: Date) -> String {
        String(date.formatted(.iso8601).dropFirst(11).prefix(8))
    }
}
