#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A forward-only reader of JSON tokens over UTF-8 bytes, for the store's fast reader.
///
/// It accepts only strict JSON (RFC 8259) and answers nil on anything it does not handle —
/// a syntax error, invalid UTF-8, a lone surrogate escape, a number out of range, nesting deeper
/// than `maxDepth` — so the caller can hand the file to `JSONDecoder`, whose messages name the
/// problem. It never guesses.
struct JSONCursor {
    /// How deep arrays and objects may nest in a value (a payload, an unknown field): `JSONValue.maxLevels`.
    static let maxDepth = JSONValue.maxLevels

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    /// Whether an object may repeat a key (the later value kept): only to tell, after a refusal,
    /// that a repeated key was the reason.
    var allowsRepeatedKeys = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether only whitespace is left.
    mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return position == bytes.count
    }

    /// Consumes `byte` (after whitespace) when it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// The next byte after whitespace, not consumed.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes `literal` (`null`, `true`, `false`) when it is next.
    mutating func consume(literal: StaticString) -> Bool {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != literal.utf8Start[offset] { return false }
        position += count
        return true
    }

    /// The position after any whitespace: where the next token starts.
    mutating func nextTokenPosition() -> Int {
        skipWhitespace()
        return position
    }

    /// Moves back to `earlier`, a position this cursor was at.
    mutating func rewind(to earlier: Int) {
        position = earlier
    }

    /// Whether `literal` comes next, byte for byte (no whitespace skipped); consumed when it does.
    mutating func consumeExactly(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count, let base = bytes.baseAddress,
              memcmp(base + position, literal.utf8Start, count) == 0 else { return false }
        position += count
        return true
    }

    /// Whether `literal` comes next, byte for byte, without consuming it.
    func isNext(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + position, literal.utf8Start, count) == 0
    }

    /// The next `count` bytes, consumed; nil when fewer are left.
    mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
        guard position + count <= bytes.count else { return nil }
        defer { position += count }
        return UnsafeBufferPointer(rebasing: bytes[position..<position + count])
    }

    /// A string starting exactly here with no escapes, as text and as its bytes; nil otherwise (nothing consumed).
    mutating func plainStringHere() -> (text: String, bytes: UnsafeBufferPointer<UInt8>)? {
        let start = position
        guard let (content, isASCII) = plainStringContent() else { return nil }
        guard let text = isASCII ? String(decoding: content, as: UTF8.self) : ValidUTF8.string(content) else {
            position = start
            return nil
        }
        return (text, content)
    }

    /// The raw bytes of the next string when it has no escapes (object keys); nil otherwise.
    mutating func plainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        return plainStringContent()?.bytes
    }

    /// The next string, escapes decoded; nil when it is not a valid JSON string of valid UTF-8.
    mutating func string() -> String? {
        skipWhitespace()
        if let plain = plainStringHere() { return plain.text }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        position += 1
        return escapedString()
    }

    /// The content of a string starting exactly here that has no escapes or control characters,
    /// and whether it is all ASCII; nil (nothing consumed) for anything else.
    mutating func plainStringContent() -> (bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let base = bytes.baseAddress else { return nil }
        var end = position + 1
        // Eight bytes at a time while none is a quote, a backslash, a control character or non-ASCII.
        while end + 8 <= bytes.count, JSONCursor.isPlainASCII(UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)) {
            end += 8
        }
        var isASCII = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                defer { position = end + 1 }
                return (UnsafeBufferPointer(rebasing: bytes[position + 1..<end]), isASCII)
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            isASCII = isASCII && byte < 0x80
            end += 1
        }
        return nil
    }

    /// The content of a string starting exactly here: `previous` itself when the string has the same
    /// bytes (one `memcmp`, for fields that repeat from record to record), else `plainStringContent`'s answer.
    mutating func plainStringContent(repeating previous: (bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool)?) -> (bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
        if let previous, let source = previous.bytes.baseAddress, let base = bytes.baseAddress {
            let count = previous.bytes.count
            if position + count + 2 <= bytes.count, base[position] == UInt8(ascii: "\""), base[position + count + 1] == UInt8(ascii: "\""),
               memcmp(base + position + 1, source, count) == 0 {
                position += count + 2
                return previous
            }
        }
        return plainStringContent()
    }

    /// Whether none of the eight bytes in `word` is `"`, `\\`, below 0x20 or above 0x7F (bit tricks, exact).
    @inline(__always)
    private static func isPlainASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // With no high bit set, `x - n` borrows into a byte's high bit exactly when some byte is below n.
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        return word & highs == 0 && (word &- ones &* 0x20) & highs == 0
            && !hasZero(word ^ (ones &* 0x22)) && !hasZero(word ^ (ones &* 0x5C))
    }

    /// A whole number `-?(0|[1-9][0-9]*)` that fits an `Int`; nil for fractions, exponents and the rest.
    mutating func integer() -> Int? {
        skipWhitespace()
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let start = position
        var value = 0
        while position < bytes.count, case let digit = Int(bytes[position]) - 48, (0...9).contains(digit) {
            let (times, overflowTen) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowDigit) = times.addingReportingOverflow(negative ? -digit : digit)
            guard !overflowTen, !overflowDigit else { return nil }
            value = sum
            position += 1
        }
        let length = position - start
        guard length > 0, length == 1 || bytes[start] != UInt8(ascii: "0"), !(negative && value == 0) else { return nil }
        guard position == bytes.count || !Self.continuesNumber(bytes[position]) else { return nil }
        return value
    }

    /// A JSON number as the nearest `Double`; nil when it is malformed or out of a double's range.
    mutating func number() -> Double? {
        numberLiteral()?.doubleValue
    }

    /// A JSON number with its exact text; nil when it is malformed or out of a double's range (see `JSONNumber`).
    mutating func numberLiteral() -> JSONNumber? {
        skipWhitespace()
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        guard skipDigits() > 0, bytes[integerStart] != UInt8(ascii: "0") || position - integerStart == 1 else { return nil }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { return nil }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        return JSONNumber(literal: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }

    /// Any JSON value, for payloads; nil when it is not one (or its arrays and objects nest deeper than `maxDepth`).
    ///
    /// `depth` counts the arrays and objects around this value.
    mutating func value(depth: Int = 0) -> JSONValue? {
        guard let next = peek() else { return nil }
        if next == UInt8(ascii: "[") || next == UInt8(ascii: "{") { guard depth < Self.maxDepth else { return nil } }
        switch next {
        case UInt8(ascii: "n"): return consume(literal: "null") ? .null : nil
        case UInt8(ascii: "t"): return consume(literal: "true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return consume(literal: "false") ? .bool(false) : nil
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONValue] = []
            if consume(UInt8(ascii: "]")) { return .array(items) }
            repeat {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? .array(items) : nil
        case UInt8(ascii: "{"):
            position += 1
            var members: [String: JSONValue] = [:]
            if consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                // A repeated member is declined; the fallback refuses it (`RepeatedMembers`).
                guard let key = string(), consume(UInt8(ascii: ":")), let item = value(depth: depth + 1),
                      members.updateValue(item, forKey: key) == nil || allowsRepeatedKeys else { return nil }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? .object(members) : nil
        default:
            return numberLiteral().map(JSONValue.number)
        }
    }

    /// Skips any JSON value (a field this reader does not know); false when it is not one.
    mutating func skipValue() -> Bool {
        value() != nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - start
    }

    private static func continuesNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A string with escapes, from its first content byte (the opening quote consumed).
    private mutating func escapedString() -> String? {
        var decoded: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return ValidUTF8.string(decoded)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                if let simple = JSONEscape.simple(escape) {
                    decoded.append(simple)
                } else if escape == UInt8(ascii: "u"), let scalar = unicodeEscape() {
                    decoded.append(contentsOf: String(Character(scalar)).utf8)
                } else {
                    return nil
                }
            case ..<0x20:
                return nil
            default:
                decoded.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (the `\u` consumed), joining a surrogate pair; nil for a lone surrogate.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexQuad() else { return nil }
        guard (0xD800...0xDFFF).contains(high) else { return Unicode.Scalar(high) }
        guard high < 0xDC00, position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return nil }
        position += 2
        guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
        return Unicode.Scalar(JSONEscape.joined(high: high, low: low))
    }

    private mutating func hexQuad() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONEscape.hexDigit(bytes[position]) else { return nil }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
