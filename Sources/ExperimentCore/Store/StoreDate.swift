import Foundation

/// The store's dates, `2026-01-31T09:30:00Z`, read and written without a date formatter.
///
/// Foundation's ISO 8601 formatter costs microseconds a date, and a big store holds a date per
/// whitelist entry. This handles the one form the store writes, for years 1900–9999, with the
/// proleptic Gregorian arithmetic Foundation uses there; anything else (other years, offsets,
/// fractions, out-of-range fields that Foundation rolls over) is left to `ISO8601DateFormatter`,
/// so a date means the same whichever path reads or writes it.
package enum StoreDate {
    /// The length of `YYYY-MM-DDTHH:MM:SSZ`.
    package static let length = 20
    private static let years = 1900...9999

    /// Seconds since 1970 for the exact form with in-range fields; nil for anything else.
    package static func seconds(parsing text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard text.count == length, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z"),
              let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
              let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2),
              years.contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        return daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Whether the calendar fields at the start of an ISO 8601 text (`YYYY-MM-DD`, then `THH:MM:SS`
    /// when present) name a real instant: year 1 or later, a day the month has, hour < 24, minute
    /// and second < 60. Other forms are left to the parser.
    package static func isPossible(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { text in
            guard text.count >= 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
                  let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2) else { return true }
            guard year >= 1, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day) else { return false }
            guard text.count >= 19, text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
                  let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2) else { return true }
            return hour < 24 && minute < 60 && second < 60
        }
    }

    /// `date` as Foundation's `.iso8601` strategy writes it (whole seconds, UTC), into `text`.
    package static func format(_ date: Date, into text: inout [UInt8]) {
        // Foundation rounds to milliseconds, then drops the fraction.
        let seconds = ((date.timeIntervalSince1970 * 1000).rounded() / 1000).rounded(.down)
        if let whole = Int(exactly: seconds), format(seconds: whole, into: &text) { return }
        text = Array(ISO8601DateFormatter().string(from: date).utf8)
    }

    /// Writes the 20 bytes of `seconds` since 1970 into `text`; false when the year is not 1900–9999.
    package static func format(seconds: Int, into text: inout [UInt8]) -> Bool {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard years.contains(year) else { return false }
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

    private static func digits(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<start + count {
            let digit = Int(text[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
