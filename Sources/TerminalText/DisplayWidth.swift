/// How many terminal columns text takes, measured per grapheme cluster.
///
/// Pure Swift and locale-independent, so layout is the same on every machine:
/// East Asian Wide and Fullwidth characters and emoji take two columns; combining
/// marks, format characters and controls take none.
public enum DisplayWidth {
    /// The columns `string` takes.
    public static func of(_ string: String) -> Int {
        var total = 0
        for character in string {
            total += of(character)
        }
        return total
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    ///
    /// A cluster is as wide as its first scalar of non-zero width; it is 2 when that
    /// scalar has emoji presentation or the cluster asks for it with U+FE0F.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        var base: Unicode.Scalar?
        var requestsEmoji = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F {
                requestsEmoji = true
            }
            if base == nil, width(of: scalar) > 0 {
                base = scalar
            }
        }
        guard let base else { return 0 }
        if requestsEmoji || base.properties.isEmojiPresentation {
            return 2
        }
        return width(of: base)
    }

    /// `string` cut to at most `width` columns, ending in "…" when anything was cut.
    ///
    /// A wide character is never split: when only its left half would fit, the ellipsis
    /// takes its place and the result is one column narrower than `width`.
    public static func truncate(_ string: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(string) > width else { return string }
        let budget = width - 1
        var result = ""
        var used = 0
        for character in string {
            let columns = of(character)
            if used + columns > budget {
                break
            }
            result.append(character)
            used += columns
        }
        result.append("…")
        return result
    }

    /// `string` followed by spaces up to `width` columns; longer text is left as it is.
    public static func pad(_ string: String, toWidth width: Int) -> String {
        let missing = width - of(string)
        guard missing > 0 else { return string }
        return string + String(repeating: " ", count: missing)
    }

    /// `string` truncated and then padded to exactly `width` columns.
    public static func fit(_ string: String, toWidth width: Int) -> String {
        pad(truncate(string, toWidth: width), toWidth: width)
    }

    /// The columns one scalar takes on its own: 0, 1 or 2 (emoji presentation aside).
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) {
            return 0
        }
        if value < 0x300 {
            return 1
        }
        if isZeroWidth(scalar) {
            return 0
        }
        return WideScalars.contains(value) ? 2 : 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF:
            // Hangul medial vowels and final consonants join the preceding syllable.
            return true
        default:
            break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }
}
