import ExperimentCore
/// JSON scalars for the store writer: quoted strings and numbers as Foundation writes them.
extension ByteWriter {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t` or `\u001b` (`JSONEscape.written`).
    package mutating func appendQuoted(_ text: String) {
        // In place for native strings: no copy, no reference count.
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0) }) == nil {
            var copy = text
            copy.withUTF8 { appendQuoted(utf8: $0) }
        }
    }

    /// Appends UTF-8 `bytes` as a JSON string, escaped as `appendQuoted(_:)` does; `htmlSafe` also
    /// writes each `</` as `<\/` (`HTMLSafeJSON`'s rule, for the exports).
    package mutating func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, htmlSafe: Bool = false) {
        append(UInt8(ascii: "\""))
        appendEscaped(bytes, htmlSafe: htmlSafe)
        append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal, for fragments assembled ahead of time.
    package static func quoted(_ text: String) -> [UInt8] {
        var writer = ByteWriter(capacity: text.utf8.count + 2)
        writer.appendQuoted(text)
        return [UInt8](writer.data())
    }

    @inline(__always)
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, htmlSafe: Bool) {
        var clean = 0
        for (index, byte) in bytes.enumerated() {
            if htmlSafe, byte == UInt8(ascii: "/"), index > 0, bytes[index - 1] == UInt8(ascii: "<") {
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
    }

    /// Appends a number as `JSONEncoder` does: shortest round-trip digits, no trailing `.0`.
    package mutating func append(number value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(utf8: text)
    }
}
