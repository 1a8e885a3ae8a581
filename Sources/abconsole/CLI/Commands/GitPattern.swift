/// How `git-setup` writes a path into `.gitattributes` and `.gitignore` so that git reads back
/// exactly that path, whatever characters it holds.
enum GitPattern {
    /// The `.gitattributes` pattern of `relative` (a path from the work tree's top): anchored with
    /// `/`, glob characters escaped, and C-quoted (`"…"`) when it holds a space, a quote, a backslash
    /// or a control character, as gitattributes requires (an unquoted space ends the pattern).
    static func attributes(_ relative: String) -> String {
        let pattern = "/" + globEscaped(relative)
        guard pattern.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F })
        else { return pattern }
        var quoted = "\""
        for scalar in pattern.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: quoted += "\\" + octal(scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// The `.gitignore` pattern of `relative`: anchored with `/`, glob characters and a trailing
    /// space escaped with a backslash (gitignore has no quoting), a control character matched by `?`.
    static func ignore(_ relative: String) -> String {
        var pattern = "/" + String(String.UnicodeScalarView(globEscaped(relative).unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? "?" : $0
        }))
        if pattern.hasSuffix(" ") { pattern = String(pattern.dropLast()) + "\\ " }
        return pattern
    }

    /// `path` with wildmatch's special characters (`[ ] * ? \`) taken literally.
    private static func globEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path {
            if "[]*?\\".contains(character) { escaped += "\\" }
            escaped.append(character)
        }
        return escaped
    }

    private static func octal(_ value: UInt32) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }
}
