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
    package static let length = UTCTimestamp.length
    private static let years = 1900...9999

    /// Seconds since 1970 for the exact form with in-range fields; nil for anything else.
    package static func seconds(parsing text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard text.count == length, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z"),
              let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
              let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2),
              years.contains(year), (1...12).contains(month), (1...CivilCalendar.daysIn(month, of: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        return CivilCalendar.daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Whether the calendar fields at the start of an ISO 8601 text (`YYYY-MM-DD`, then `THH:MM:SS`
    /// when present) name a real instant: year 1 or later, a day the month has, hour < 24, minute
    /// and second < 60. Other forms are left to the parser.
    package static func isPossible(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { text in
            guard text.count >= 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
                  let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2) else { return true }
            guard year >= 1, (1...12).contains(month), (1...CivilCalendar.daysIn(month, of: year)).contains(day) else { return false }
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
        guard years.contains(CivilCalendar.civil(fromDays: days).year) else { return false }
        return UTCTimestamp.write(seconds: seconds, into: &text)
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
}
