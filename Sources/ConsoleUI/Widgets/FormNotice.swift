/// Long messages inside a form box: the error that kept the form open, word-wrapped.
enum FormNotice {
    /// `text` broken into lines of at most `width` columns, at spaces where possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = word
            while DisplayWidth.of(line) > width {
                let head = prefix(line, width: width)
                lines.append(head)
                line = String(line.dropFirst(head.count))
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Draws the current error message, if any, from `y` down to at most `maxY`; returns the rows used.
    @discardableResult
    static func render(_ message: StatusMessage?, x: Int, y: Int, width: Int, maxY: Int, into buffer: inout ScreenBuffer) -> Int {
        guard let message, message.isError else { return 0 }
        let lines = wrap(SafeText.escaped(message.text), width: width)
        let shown = lines.prefix(max(0, maxY - y))
        for (offset, line) in shown.enumerated() {
            buffer.write(line, x: x, y: y + offset, maxWidth: width, style: Palette.error)
        }
        return shown.count
    }

    /// The longest prefix of `text` that fits `width` columns (at least one character).
    private static func prefix(_ text: String, width: Int) -> String {
        var result = ""
        for character in text {
            if DisplayWidth.of(result) + DisplayWidth.of(character) > width, !result.isEmpty { break }
            result.append(character)
        }
        return result
    }
}
