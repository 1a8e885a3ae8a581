import Testing
@testable import TerminalText

@Suite("Safe text")
struct SafeTextTests {
    @Test func escapeSequenceBecomesVisible() {
        let escaped = SafeText.escaped("\u{1B}[2J")
        #expect(escaped == #"\e[2J"#)
        #expect(escaped.count == 5)
    }

    @Test func lineControlsUseTheirShortEscapes() {
        #expect(SafeText.escaped("a\nb") == #"a\nb"#)
        #expect(SafeText.escaped("a\rb") == #"a\rb"#)
        #expect(SafeText.escaped("a\tb") == #"a\tb"#)
        #expect(SafeText.escaped("\r\n") == #"\r\n"#)
    }

    @Test func otherC0AndDeleteUseHex() {
        #expect(SafeText.escaped("\u{0}") == #"\x00"#)
        #expect(SafeText.escaped("bell\u{7}") == #"bell\x07"#)
        #expect(SafeText.escaped("\u{1F}") == #"\x1f"#)
        #expect(SafeText.escaped("\u{7F}") == #"\x7f"#)
    }

    @Test func c1ControlsUseUnicodeEscapes() {
        #expect(SafeText.escaped("\u{85}") == #"\u{85}"#)
        #expect(SafeText.escaped("\u{9B}31m") == #"\u{9b}31m"#)
    }

    @Test func bidiOverridesAndIsolatesUseUnicodeEscapes() {
        #expect(SafeText.escaped("abc\u{202E}def") == #"abc\u{202e}def"#)
        #expect(SafeText.escaped("\u{202A}\u{2066}\u{2069}") == #"\u{202a}\u{2066}\u{2069}"#)
    }

    @Test func printableTextIsUntouched() {
        let text = #"日本語 👍 e\#u{301} C:\path "quoted" ❤️"#
        #expect(SafeText.escaped(text) == text)
        #expect(SafeText.escaped("") == "")
    }
}
