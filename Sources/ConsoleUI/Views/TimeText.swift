import Foundation

/// Dates as the console shows them, always in UTC so screens do not depend on the machine.
enum TimeText {
    /// `2026-07-22 10:00`.
    static func short(_ date: Date) -> String {
        let text = date.formatted(.iso8601)
        return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }
}
