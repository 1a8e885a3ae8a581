import ExperimentCore

/// JSON for the exports, HTML-safe as it is written (`HTMLSafeJSON`'s rule: every `</` in a string
/// written `<\/`), strings escaped as the store writer escapes them (`JSONEscape.written`).
extension ByteWriter {
    /// Appends UTF-8 `bytes` as an HTML-safe JSON string.
    package mutating func appendHTMLSafeQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        appendQuoted(utf8: bytes, htmlSafe: true)
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
