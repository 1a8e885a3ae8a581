import ExperimentCore

/// JSON for the exports, HTML-safe as it is written (`HTMLSafeJSON`'s rule: every `</` in a string
/// written `<\/`), strings escaped as the store writer escapes them (`JSONEscape.written`).
extension ByteWriter {
    /// Appends UTF-8 `bytes` as an HTML-safe JSON string.
    package mutating func appendHTMLSafeQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var clean = 0, previous: UInt8 = 0
        for (index, byte) in bytes.enumerated() {
            defer { previous = byte }
            if byte == UInt8(ascii: "/"), previous == UInt8(ascii: "<") {
                append(UnsafeBufferPointer(rebasing: bytes[clean..<index]))
                append(UInt8(ascii: "\\"))
                clean = index
                continue
            }
            guard let escape = JSONEscape.written(byte) else { continue }
            append(UnsafeBufferPointer(rebasing: bytes[clean..<index]))
            append(UInt8(ascii: "\\"))
            append(escape)
            if escape == UInt8(ascii: "u") {
                append("00")
                append(JSONEscape.lowercaseHex[Int(byte >> 4)])
                append(JSONEscape.lowercaseHex[Int(byte & 0xF)])
            }
            clean = index + 1
        }
        append(UnsafeBufferPointer(rebasing: bytes[clean...]))
        append(UInt8(ascii: "\""))
    }

    /// Appends `text` as an HTML-safe JSON string.
    package mutating func appendHTMLSafeQuoted(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ appendHTMLSafeQuoted(utf8: $0) }) == nil {
            var copy = text
            copy.withUTF8 { appendHTMLSafeQuoted(utf8: $0) }
        }
    }

    /// Appends `value` HTML-safe as `JSONValue.compactText` writes it: keys in byte order, numbers as given.
    package mutating func appendHTMLSafe(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(true): append("true")
        case .bool(false): append("false")
        case .number(let number): append(utf8: number.literal)
        case .string(let string): appendHTMLSafeQuoted(string)
        case .array(let items):
            append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendHTMLSafe(item)
            }
            append(UInt8(ascii: "]"))
        case .object(let members):
            append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendHTMLSafeQuoted(key)
                append(UInt8(ascii: ":"))
                appendHTMLSafe(members[key] ?? .null)
            }
            append(UInt8(ascii: "}"))
        }
    }
}
