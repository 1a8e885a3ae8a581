/// The scalars that East Asian Width gives as Wide or Fullwidth, emoji aside.
///
/// Emoji are left out: `Unicode.Scalar.Properties.isEmojiPresentation` covers them with
/// the toolchain's own Unicode data. Generated from Unicode 14 `EastAsianWidth.txt`
/// (W and F), with unassigned gaps inside wide blocks merged, the planes that default
/// to Wide (U+20000–U+3FFFD) included, and two blocks counted wide as glibc's `wcwidth`
/// does (so the terminal agrees): U+3248–U+324F (ambiguous) and the Yijing hexagrams
/// U+4DC0–U+4DFF (Wide since Unicode 16).
enum WideScalars {
    /// Sorted, non-overlapping ranges.
    static let ranges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols
        0x3041...0xA4C6,    // kana, Bopomofo, Hangul compatibility, enclosed CJK, CJK extension A,
                            // Yijing hexagrams, CJK unified ideographs, Yi
        0xA960...0xA97C,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6B,    // CJK compatibility forms, small form variants
        0xFF01...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x1B2FB,  // Tangut, Khitan, Nushu, Kana supplement and extensions
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x3FFFD,  // planes 2 and 3: CJK extensions
    ]

    /// Whether `value` lies in one of the ranges (binary search).
    static func contains(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
