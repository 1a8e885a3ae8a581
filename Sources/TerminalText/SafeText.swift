/// Makes untrusted text safe to put on a terminal by spelling out what could control it.
public enum SafeText {
    /// `string` with terminal controls written as visible escapes.
    ///
    /// ESC becomes `\e`; newline, carriage return and tab become `\n`, `\r`, `\t`; other C0
    /// controls and DEL become `\xNN`; C1 controls, bidirectional overrides and isolates, and
    /// invisible characters (U+FEFF, U+200B, U+2060–2064, U+180E) become `\u{NN}`. A backslash stays a backslash, and all printable text, CJK and emoji
    /// included, is left untouched.
    public static func escaped(_ string: String) -> String {
        guard string.unicodeScalars.contains(where: needsEscape) else { return string }
        var result = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if needsEscape(scalar) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
            return true
        case 0xFEFF, 0x200B, 0x2060...0x2064, 0x180E:  // invisible: a BOM or zero-width space would hide a difference
            return true
        default:
            return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        switch value {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x1F, 0x7F: return "\\x" + hex(value, minimumDigits: 2)
        default: return "\\u{" + hex(value, minimumDigits: 1) + "}"
        }
    }

    private static func hex(_ value: UInt32, minimumDigits: Int) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, minimumDigits - digits.count)) + digits
    }
}
