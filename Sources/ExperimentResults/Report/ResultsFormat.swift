import Foundation

/// How results numbers are written for people (the same on the command line and in the console).
package enum ResultsFormat {
    /// `12345` → `12,345`.
    package static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// A share as a percentage with `digits` decimals: `0.1234` → `12.34 %`.
    package static func percent(_ share: Double, digits: Int = 2) -> String {
        String(format: "%.\(digits)f %%", share * 100)
    }

    /// A lift with its sign: `0.2` → `+20.0 %`.
    package static func lift(_ lift: Double) -> String {
        let text = String(format: "%+.1f %%", lift * 100)
        return text == "-0.0 %" ? "+0.0 %" : text
    }

    /// An interval of lifts: `[-4.1 %, +12.3 %]`.
    package static func interval(_ interval: Interval) -> String {
        "[\(lift(interval.lower)), \(lift(interval.upper))]"
    }

    /// A probability such as a chance to win: `0.9712` → `97.1 %`; `> 99.9 %` and `< 0.1 %` at the ends.
    package static func chance(_ value: Double) -> String {
        value > 0.999 ? "> 99.9 %" : value < 0.001 ? "< 0.1 %" : String(format: "%.1f %%", value * 100)
    }

    /// A p-value in a sentence: `p = 0.0123`, or `p < 0.0001`.
    package static func pClause(_ value: Double) -> String {
        value < 0.0001 ? "p < 0.0001" : "p = " + pValue(value)
    }

    /// A p-value: four decimals, `< 0.0001` below that.
    package static func pValue(_ value: Double) -> String {
        value < 0.0001 ? "< 0.0001" : String(format: "%.4f", value)
    }

    /// A mean or a sum: up to four significant decimals, no trailing zeros, thousands grouped as `count` groups them.
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return count(Int(value)) }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 2 : magnitude >= 1 ? 3 : 4
        var text = String(format: "%.\(decimals)f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return grouped(text)
    }

    /// `-12345.67` → `-12,345.67`: the whole digits of a formatted number grouped in thousands.
    private static func grouped(_ text: String) -> String {
        let sign = text.hasPrefix("-") ? "-" : ""
        let unsigned = text.dropFirst(sign.count)
        let whole = unsigned.prefix { $0.isASCII && $0.isNumber }
        guard whole.count > 3, whole.count == unsigned.prefix(while: { $0 != "." }).count else { return text }
        var out = ""
        for (index, character) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return sign + out + unsigned.dropFirst(whole.count)
    }

    /// `last exposure 2026-11-04T11:59:59Z`: when the newest exposure in the window happened, or nil without exposures.
    package static func lastExposure(_ analysis: Analysis) -> String? {
        analysis.lastExposure.map { "last exposure " + timeToSecond($0) }
    }

    /// An instant in nanoseconds as RFC 3339 (UTC).
    package static func time(_ nanos: Int64) -> String { EventTime.format(nanos) }

    /// An instant for people: RFC 3339 (UTC) to the second, the fraction dropped.
    package static func timeToSecond(_ nanos: Int64) -> String {
        let (seconds, remainder) = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
        let floored = remainder < 0 ? seconds - 1 : seconds
        // At the very start of nanosecond time the floored second is not representable: keep the truncated one.
        let (whole, overflow) = floored.multipliedReportingOverflow(by: 1_000_000_000)
        return EventTime.format(overflow ? seconds * 1_000_000_000 : whole)
    }
}
