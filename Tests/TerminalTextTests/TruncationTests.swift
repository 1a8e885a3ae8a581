import Testing
@testable import TerminalText

@Suite("Truncation and padding")
struct TruncationTests {
    @Test func textThatFitsIsUntouched() {
        #expect(DisplayWidth.truncate("hello", toWidth: 5) == "hello")
        #expect(DisplayWidth.truncate("日本語", toWidth: 6) == "日本語")
    }

    @Test func cutTextEndsInAnEllipsis() {
        #expect(DisplayWidth.truncate("hello world", toWidth: 5) == "hell…")
        #expect(DisplayWidth.truncate("hello", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("hello", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("hello", toWidth: -3) == "")
    }

    @Test func wideCharactersAreNeverSplit() {
        #expect(DisplayWidth.truncate("日本語", toWidth: 5) == "日本…")
        #expect(DisplayWidth.truncate("日本語", toWidth: 4) == "日…")  // 本 would straddle: 3 columns
        #expect(DisplayWidth.truncate("日本語", toWidth: 2) == "…")
        #expect(DisplayWidth.truncate("a👍b", toWidth: 3) == "a…")
    }

    @Test func combiningMarksStayWithTheirBase() {
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
    }

    @Test func padAddsSpacesByDisplayWidth() {
        #expect(DisplayWidth.pad("日本", toWidth: 6) == "日本  ")
        #expect(DisplayWidth.pad("abc", toWidth: 2) == "abc")
        #expect(DisplayWidth.fit("日本語", toWidth: 4) == "日… ")
        #expect(DisplayWidth.fit("ok", toWidth: 4) == "ok  ")
    }
}
