import Foundation

/// The `Date` header's IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`). Each event loop formats it
/// once a second and reuses the text, so no request pays for a formatter.
enum HTTPDate {
    /// The date of `seconds` since 1970-01-01 00:00:00 UTC.
    static func format(secondsSince1970 seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }
}
