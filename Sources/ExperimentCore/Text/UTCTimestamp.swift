import Foundation

/// RFC 3339 timestamps in UTC, `2026-11-20T10:15:02Z`: the one formatter behind the store's dates, the
/// labels people read (`TimeLabel`), event times and the client's exposures. Written by hand (a date
/// formatter costs microseconds a call) with the proleptic Gregorian arithmetic of `CivilCalendar`.
package enum UTCTimestamp {
    /// The length of `YYYY-MM-DDTHH:MM:SSZ`.
    package static let length = 20

    /// `date` with whole seconds (the fraction dropped, as a calendar reads it).
    package static func string(_ date: Date) -> String {
        string(seconds: Int(date.timeIntervalSince1970.rounded(.down)))
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff…]Z` for `seconds` since 1970 and `nanoseconds` more (0–999,999,999);
    /// the fraction only when it is not zero, without trailing zeros. Years 0–9999.
    package static func string(seconds: Int, nanoseconds: Int = 0) -> String {
        var text = [UInt8](repeating: 0, count: length)
        guard write(seconds: seconds, into: &text) else { return Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601) }
        if nanoseconds != 0 {
            var digits = Array(String(nanoseconds).utf8)
            digits.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 9 - digits.count)), at: 0)
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
            text.insert(contentsOf: [UInt8(ascii: ".")] + digits, at: length - 1)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes the 20 bytes of `seconds` since 1970 into `text` (resized when needed); false when the year is not 0–9999.
    package static func write(seconds: Int, into text: inout [UInt8]) -> Bool {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        guard (0...9999).contains(year) else { return false }
        if text.count != length { text = [UInt8](repeating: 0, count: length) }
        func put(_ value: Int, _ start: Int, _ width: Int) {
            var value = value
            for offset in (0..<width).reversed() {
                text[start + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, 0, 4)
        put(month, 5, 2)
        put(day, 8, 2)
        put(time / 3_600, 11, 2)
        put(time / 60 % 60, 14, 2)
        put(time % 60, 17, 2)
        (text[4], text[7], text[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
        (text[13], text[16], text[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
        return true
    }
}
