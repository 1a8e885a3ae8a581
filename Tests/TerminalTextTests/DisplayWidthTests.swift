import Testing
@testable import TerminalText

@Suite("Display width")
struct DisplayWidthTests {
    @Test func asciiIsOneColumnPerCharacter() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("hello, world") == 12)
    }

    @Test func eastAsianWideCharactersTakeTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ひらがなカタカナ") == 16)
        #expect(DisplayWidth.of("Ａ１") == 4)  // fullwidth forms
        #expect(DisplayWidth.of("ｱｲ") == 2)  // halfwidth katakana
        #expect(DisplayWidth.of("a日b") == 4)
    }

    @Test func emojiTakeTwoColumns() {
        #expect(DisplayWidth.of("👍") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)  // skin tone modifier
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)  // ZWJ family: one cluster
        #expect(DisplayWidth.of("🇯🇵") == 2)  // flag
        #expect(DisplayWidth.of("❤️") == 2)  // text-default base with U+FE0F
        #expect(DisplayWidth.of("❤") == 1)  // the same base without it
        #expect(DisplayWidth.of("1️⃣") == 2)  // keycap
    }

    @Test func combiningAndFormatCharactersTakeNoColumn() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("\u{E9}") == 1)
        #expect(DisplayWidth.of("e\u{301}e\u{301}") == 2)
        #expect(DisplayWidth.of("\u{1112}\u{1161}\u{11AB}") == 2)  // 한 from conjoining jamo
        #expect(DisplayWidth.of("a\u{200B}b") == 2)  // zero width space
        #expect(DisplayWidth.of("\u{301}") == 0)  // a stray combining mark
    }

    @Test func controlsTakeNoColumn() {
        #expect(DisplayWidth.of("\u{1B}[2J") == 3)
        #expect(DisplayWidth.of("a\tb\r\n") == 2)
        #expect(DisplayWidth.of("\u{7F}\u{85}") == 0)
    }

    @Test func characterOverloadMatches() {
        #expect(DisplayWidth.of(Character("日")) == 2)
        #expect(DisplayWidth.of(Character("a")) == 1)
        #expect(DisplayWidth.of(Character("👨‍👩‍👧")) == 2)
    }

    @Test func wideTableIsSortedAndDisjoint() {
        let ranges = WideScalars.ranges
        for (lower, upper) in zip(ranges, ranges.dropFirst()) {
            #expect(lower.upperBound < upper.lowerBound)
        }
        #expect(WideScalars.contains(0x1100))
        #expect(WideScalars.contains(0x3FFFD))
        #expect(!WideScalars.contains(0x10FF))
        #expect(WideScalars.contains(0x4DC0))  // Yijing hexagrams, wide as glibc has them
        #expect(!WideScalars.contains(0x3040))  // unassigned, just before Hiragana
    }
}
