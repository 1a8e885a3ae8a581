import Foundation

/// Times as people read them, the same on every front: UTC, labelled as such.
///
/// UTC rather than local time, so two operators in different zones, the store file and the
/// history all show the same instant the same way (`2026-03-01 10:00:00 UTC`).
public enum TimeLabel {
    /// `date` as `YYYY-MM-DD HH:MM:SS UTC`.
    public static func utc(_ date: Date) -> String {
        utcFormat.format(date).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }

    /// `date` as `YYYY-MM-DD HH:MM UTC`, for narrow columns.
    public static func utcMinutes(_ date: Date) -> String {
        let text = utc(date)
        return String(text.prefix(16)) + " UTC"
    }

    /// `date` as `HH:MM:SS UTC`, the time of day, for a log of today's messages.
    public static func utcClock(_ date: Date) -> String {
        String(utc(date).dropFirst(11))
    }

    private static let utcFormat = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
}
