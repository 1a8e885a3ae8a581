/// Strings exactly as the store's writer writes them, escapes and all.
extension JSONCursor {
    /// The content of a string starting exactly here (its escapes left in) when its bytes are
    /// exactly what the writer writes for its text: no raw control character, and each escape the
    /// one `JSONEscape.written` gives for the byte it stands for (so `\/`, `\u0041` or `\u000A` are
    /// not). `escaped` tells whether there was any; nil, nothing consumed, for anything else.
    mutating func writtenStringContent() -> (content: PlainText, escaped: Bool)? {
        if let plain = plainStringContent() { return (plain, false) }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        var end = position + 1, isASCII = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                // The whole string, quotes and all, consumed; its content is what lies between the quotes.
                guard let string = take(end + 1 - position) else { return nil }
                return ((UnsafeBufferPointer(rebasing: string.dropFirst().dropLast()), isASCII), true)
            }
            if byte == UInt8(ascii: "\\") {
                guard let length = writtenEscapeLength(at: end) else { return nil }
                end += length
                continue
            }
            guard byte >= 0x20 else { return nil }
            isASCII = isASCII && byte < 0x80
            end += 1
        }
        return nil
    }

    /// The length of the escape at `start` (a backslash) when it is the writer's for the byte it stands for; nil otherwise.
    private func writtenEscapeLength(at start: Int) -> Int? {
        guard start + 1 < bytes.count else { return nil }
        let escape = bytes[start + 1]
        if escape == UInt8(ascii: "u") {
            guard start + 6 <= bytes.count, bytes[start + 2] == UInt8(ascii: "0"), bytes[start + 3] == UInt8(ascii: "0"),
                  let high = JSONEscape.hexDigit(bytes[start + 4]), let low = JSONEscape.hexDigit(bytes[start + 5]) else { return nil }
            let byte = UInt8(high << 4 | low)
            guard JSONEscape.written(byte) == escape, bytes[start + 4] == JSONEscape.lowercaseHex[Int(high)],
                  bytes[start + 5] == JSONEscape.lowercaseHex[Int(low)] else { return nil }
            return 6
        }
        guard let byte = JSONEscape.simple(escape), JSONEscape.written(byte) == escape else { return nil }
        return 2
    }
}
