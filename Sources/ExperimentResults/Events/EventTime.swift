/// RFC 3339 timestamps read from bytes, as nanoseconds since 1970-01-01T00:00:00Z.
///
/// Hand-written for speed (a date formatter costs microseconds a row). Accepts
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with `T`, `t` or a space between date and time and
/// `Z` or `z`; refuses impossible dates (February 30, hour 24, minute 60). A leap second (`:60`)
/// is read as the first instant of the next minute, as POSIX time does. Fraction digits past the
/// ninth are dropped (sub-nanosecond). Nanoseconds in 64 bits cover 1678–2261; years outside are refused.
public enum EventTime {

    /// Why a timestamp was refused, in words for an error message.
    public enum Problem: Error, Equatable, Sendable {
        case malformed(String)

        public var reason: String {
            switch self { case .malformed(let text): text }
        }
    }

    /// Parses `text` or returns the reason it is not an RFC 3339 timestamp.
    public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Result<Int64, Problem> {
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
        guard (1...daysIn(month, of: year)).contains(day) else { return .failure(.malformed("day \(day) does not exist in \(year)-\(pad2(month))")) }
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
        let seconds = Int64(daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds)
        return .success(seconds * 1_000_000_000 + nanos)
    }

    /// Parses a Swift string (for options such as `--from`).
    public static func parse(_ text: String) -> Result<Int64, Problem> {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// Formats nanoseconds as `YYYY-MM-DDTHH:MM:SS[.fff…]Z` (fraction digits only when non-zero).
    public static func format(_ nanos: Int64) -> String {
        let seconds = nanos >= 0 ? nanos / 1_000_000_000 : (nanos - 999_999_999) / 1_000_000_000
        let fraction = nanos - seconds * 1_000_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: Int(days))
        var text = "\(pad(year, 4))-\(pad2(month))-\(pad2(day))T\(pad2(time / 3_600)):\(pad2(time / 60 % 60)):\(pad2(time % 60))"
        if fraction != 0 {
            var digits = pad(Int(fraction), 9)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// Nanoseconds for whole seconds since 1970.
    public static func nanos(seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded(.down)) }

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

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
