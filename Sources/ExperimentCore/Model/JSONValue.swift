import Foundation

/// A JSON value, used for variant payloads (colours, copy, config) that the store passes through.
///
/// Numbers keep their text (`JSONNumber`); arrays and objects nest at most `maxLevels` deep.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// How deep arrays and objects may nest in a payload: deeper ones are refused when set and
    /// named on load, so every reader of the store reads it the same way and at full speed.
    public static let maxLevels = 64

    /// The problem of a stored payload nesting `levels` deep.
    static func tooDeepMessage(levels: Int) -> String {
        "nests \(levels) levels of arrays and objects; a payload may nest at most \(maxLevels) — flatten or remove it by hand"
    }

    /// Why text is not a payload.
    public enum ParseError: Error, Hashable, Sendable {
        /// Not one valid JSON value (RFC 8259), or a number out of a double's range.
        case invalid
        /// Valid JSON that nests arrays and objects `levels` deep, over `maxLevels`.
        case tooDeep(levels: Int)
        /// Valid JSON with a number no reader of the store keeps exactly (see `JSONNumber`), and why.
        case number(String)
        /// Valid JSON whose object repeats a key, byte for byte or as equal Unicode text (`é` and
        /// `e` + U+0301): a payload object keeps one value per key, so one would be lost.
        case repeatedKey
    }

    /// Parses JSON text such as `{"color":"#0a84ff"}`; nil when it is not valid JSON or nests too deep.
    public init?(parsing text: String) {
        guard case .success(let value) = JSONValue.parse(text) else { return nil }
        self = value
    }

    /// Parses JSON text with the store's own reader, so whatever is accepted here loads back (a leading BOM is dropped).
    public static func parse(_ text: String) -> Result<JSONValue, ParseError> {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }  // a BOM starts no value
        return text.withUTF8 { bytes in
            var cursor = JSONCursor(bytes)
            if let value = cursor.value(), cursor.isAtEnd() { return .success(value) }
            if let deepest = JSONDepth.levels(in: bytes), deepest > maxLevels { return .failure(.tooDeep(levels: deepest)) }
            if let problem = JSONDepth.numberProblem(in: bytes) { return .failure(.number(problem.message)) }
            var lenient = JSONCursor(bytes)
            lenient.allowsRepeatedKeys = true
            if lenient.value() != nil, lenient.isAtEnd() { return .failure(.repeatedKey) }
            return .failure(.invalid)
        }
    }

    /// How deep arrays and objects nest in this value (0 for a scalar).
    public var levels: Int {
        switch self {
        case .array(let items): 1 + (items.map(\.levels).max() ?? 0)
        case .object(let members): 1 + (members.values.map(\.levels).max() ?? 0)
        default: 0
        }
    }

    /// Compact JSON text with keys in byte order and numbers as given: the same bytes for the same value.
    public var compactText: String {
        var text = ""
        append(to: &text)
        return text
    }

    private func append(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += number.literal
        case .string(let string): JSONValue.appendQuoted(string, to: &text)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.append(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { text += "," }
                JSONValue.appendQuoted(key, to: &text)
                text += ":"
                (members[key] ?? .null).append(to: &text)
            }
            text += "}"
        }
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        // Most strings need no escape: appended whole, not scalar by scalar.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension JSONValue: Codable {
    /// Decodes through any `Decoder`; a number's text is as exact as the decoder can give it
    /// (`JSONDecoder` gives a `Decimal`, exact to 38 significant digits, else a double).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Decimal.self), let number = JSONNumber(literal: value.description) {
            self = .number(number)
        } else if let value = try? container.decode(Double.self), let number = JSONNumber(value) {
            self = .number(number)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes through any `Encoder`; a number as the `Decimal` of its text when that is exact, else as a double.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        // Under `PayloadEncoding`, the value's own text replaces this placeholder afterwards.
        if let placeholder = PayloadEncoding.placeholder(for: self, in: encoder) {
            try container.encode(placeholder)
            return
        }
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let decimal = Decimal(string: value.literal), JSONNumber(literal: decimal.description) == value {
                try container.encode(decimal)
            } else {
                try container.encode(value.doubleValue)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
