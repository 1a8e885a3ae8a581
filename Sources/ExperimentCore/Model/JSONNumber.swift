import Foundation

/// A JSON number kept as the exact text it was given in: payloads are data the store does not own.
///
/// Two numbers are equal when their decimal values are (`1e3` and `1000.0` are the same number),
/// but each keeps its own text, which the store writes back byte for byte. Accepted are the numbers
/// every reader of the store reads exactly: within a double's range (finite, not so small that it
/// reads as zero), and exact either as a `Decimal` (up to 38 significant digits) or as the
/// shortest text of a double — what `JSONDecoder`, the fallback reader, can give back.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The number as written, e.g. `12345678901234567890` or `1.50e-3`.
    public let literal: String

    /// A number from JSON number text; nil when `text` is not one or cannot be kept exactly (see the type).
    public init?(literal text: String) {
        guard JSONNumber.isNumberText(Array(text.utf8)), JSONNumber.problem(literal: text) == nil else { return nil }
        literal = text
    }

    /// Why a well-formed JSON number cannot be kept exactly; nil when it can (or `text` is no number at all).
    public static func problem(literal text: String) -> String? {
        guard isNumberText(Array(text.utf8)) else { return nil }
        guard let value = Double(text), value.isFinite else { return "the number \(text) is beyond a double's range" }
        let exact = decimal(of: text)
        if value == 0 { return exact.digits.isEmpty ? nil : "the number \(text) is too small for a double (it would read as 0)" }
        // Short plain numbers are exact as a Decimal; the checks below cost a parse each.
        if text.utf8.count <= 17, !text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { return nil }
        if let number = Decimal(string: text), !number.isNaN, decimal(of: number.description) == exact { return nil }
        if decimal(of: JSONNumber(unchecked: value).literal) == exact { return nil }
        return "the number \(text) has more precision than abconsole keeps exactly (38 significant digits, or a double's)"
    }

    /// The shortest text that reads back as `value` (`2.5`, `1e+21`, `3`); nil when it is not finite.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(unchecked: value)
    }

    public init(integerLiteral value: Int) { literal = String(value) }

    public init(floatLiteral value: Double) { self.init(unchecked: value) }

    private init(unchecked value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        literal = text
    }

    /// The nearest double.
    public var doubleValue: Double { Double(literal) ?? 0 }

    public var description: String { literal }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.literal == rhs.literal || decimal(of: lhs.literal) == decimal(of: rhs.literal)
    }

    public func hash(into hasher: inout Hasher) {
        let value = JSONNumber.decimal(of: literal)
        hasher.combine(value.negative)
        hasher.combine(value.digits)
        hasher.combine(value.exponent)
    }

    /// The exact value as sign, significant digits (no leading or trailing zeros) and power of ten; zero has no digits.
    private struct Exact: Equatable {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    private static func decimal(of text: String) -> Exact {
        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var exponent = 0
        while index < bytes.count, isDigit(bytes[index]) {
            digits.append(bytes[index])
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                digits.append(bytes[index])
                exponent -= 1
                index += 1
            }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            let negativeExponent = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var power = 0
            while index < bytes.count, isDigit(bytes[index]) {
                power = min(power * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1 << 40)
                index += 1
            }
            exponent += negativeExponent ? -power : power
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard let last = significant.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return Exact(negative: false, digits: [], exponent: 0) }
        exponent += significant.endIndex - last - 1
        return Exact(negative: negative, digits: Array(significant[..<(last + 1)]), exponent: exponent)
    }

    /// Whether `bytes` is exactly `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private static func isNumberText(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
