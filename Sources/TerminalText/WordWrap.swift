/// Breaks text into lines of at most a given display width, at spaces where it can.
package enum WordWrap {
    /// `text` in lines of at most `width` columns; at most `maxLines`, the last ending in `…` when cut.
    package static func lines(_ text: String, width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in words(text) {
            let candidate = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = word
            }
            while DisplayWidth.of(current) > width {
                var head = String(DisplayWidth.truncate(current, toWidth: width + 1).dropLast())
                if head.isEmpty { head = String(current.prefix(1)) }
                lines.append(head)
                current = String(current.dropFirst(head.count))
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        guard lines.count > maxLines else { return lines }
        let rest = lines[(maxLines - 1)...].joined(separator: " ")
        return Array(lines.prefix(maxLines - 1)) + [DisplayWidth.truncate(rest, toWidth: width)]
    }

    /// The words of `text`; a `%` stays with the number before it (`20 %` never breaks).
    private static func words(_ text: String) -> [String] {
        var words: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            if word.hasPrefix("%"), let last = words.popLast() {
                words.append(last + " " + word)
            } else {
                words.append(word)
            }
        }
        return words
    }
}
