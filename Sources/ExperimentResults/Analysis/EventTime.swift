import ExperimentCore

/// RFC 3339 timestamps read from bytes, as nanoseconds since 1970-01-01T00:00:00Z.
///
/// Hand-written for speed (a date formatter costs microseconds a row). Accepts
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with `T`, `t` or a space between date and time and
/// `Z` or `z`; refuses impossible dates (February 30, hour 24, minute 60). A leap second (`:60`)
/// is read as the first instant of the next minute, as POSIX time does. Fraction digits past the
/// ninth are dropped (sub-nanosecond). Nanoseconds in 64 bits cover 1678–2261; years outside are refused.
package enum EventTime {

    /// Why a timestamp was refused, in words for an error message.
    package enum Problem: Error, Equatable, Sendable {
        case malformed(String)

        package var reason: String {
            switch self { case .malformed(let text): text }
        }
    }

    /// Parses `text` or returns the reason it is not an RFC 3339 timestamp.
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Result<Int64, Problem> {
        let n = text.count
        guard n >= 19 else { return .failure(.malformed("expected an RFC 3339 time such as 2026-11-20T10:15:02Z")) }
        guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":") else {
            return .failure(.malformed("expected an RFC 3339 time such as 2026-11-20T10:15:02Z"))
        }
        let separator = text[10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " ") else {
            return .failure(.malformed("expected `T` between date and time"))
        }
        guard let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
              let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2) else {
            return .failure(.malformed("expected digits in YYYY-MM-DDTHH:MM:SS"))
        }
        guard (1...12).contains(month) else { return .failure(.malformed("month \(month) does not exist")) }
        guard (1...CivilCalendar.daysIn(month, of: year)).contains(day) else { return .failure(.malformed("day \(day) does not exist in \(year)-\(pad2(month))")) }
        guard hour < 24 else { return .failure(.malformed("hour \(hour) does not exist")) }
        guard minute < 60 else { return .failure(.malformed("minute \(minute) does not exist")) }
        guard second <= 60 else { return .failure(.malformed("second \(second) does not exist")) }
        var index = 19
        var nanos: Int64 = 0
        if index < n, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000_000
            let start = index
            while index < n, text[index] &- UInt8(ascii: "0") < 10 {
                nanos += Int64(text[index] &- UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return .failure(.malformed("expected digits after the decimal point")) }
        }
        guard index < n else { return .failure(.malformed("expected a time zone: Z or ±HH:MM")) }
        var offsetSeconds = 0
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
            guard n - index == 6, text[index + 3] == UInt8(ascii: ":"),
                  let offsetHours = digits(text, index + 1, 2), let offsetMinutes = digits(text, index + 4, 2) else {
                return .failure(.malformed("expected a time zone offset ±HH:MM"))
            }
            guard offsetHours < 24, offsetMinutes < 60 else { return .failure(.malformed("time zone offset out of range")) }
            offsetSeconds = sign * (offsetHours * 3_600 + offsetMinutes * 60)
            index += 6
        default:
            return .failure(.malformed("expected a time zone: Z or ±HH:MM"))
        }
        guard index == n else { return .failure(.malformed("unexpected text after the time zone")) }
        guard (1678...2261).contains(year) else { return .failure(.malformed("year \(year) is outside 1678–2261")) }
        let seconds = Int64(CivilCalendar.daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds)
        return .success(seconds * 1_000_000_000 + nanos)
    }

    /// Parses a Swift string (for options such as `--from`).
    package static func parse(_ text: String) -> Result<Int64, Problem> {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// Formats nanoseconds as `YYYY-MM-DDTHH:MM:SS[.fff…]Z` (fraction digits only when non-zero).
    package static func format(_ nanos: Int64) -> String {
        // Floor division without overflow, down to Int64.min (a window held at the start of nanosecond time).
        let seconds = nanos >= 0 ? nanos / 1_000_000_000 : -(-(nanos + 1) / 1_000_000_000) - 1
        let remainder = nanos % 1_000_000_000
        let fraction = remainder < 0 ? remainder + 1_000_000_000 : remainder
        return UTCTimestamp.string(seconds: Int(seconds), nanoseconds: Int(fraction))
    }

    /// Nanoseconds for seconds since 1970, held inside what 64 bits of nanoseconds can say
    /// (1677-09-21 to 2262-04-11): an instant past either end stands for that end, never a trap.
    package static func nanos(seconds: Double) -> Int64 {
        let value = (seconds * 1e9).rounded(.down)
        if value.isNaN { return 0 }
        return Int64(exactly: value) ?? (value < 0 ? .min : .max)
    }

    private static func digits(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<start + count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    private static func pad2(_ value: Int) -> String { pad(value, 2) }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
