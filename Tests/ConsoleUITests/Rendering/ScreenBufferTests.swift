import Testing
@testable import ConsoleUI

@Suite("Screen buffer")
struct ScreenBufferTests {
    @Test func writesTextAndReadsItBackAsLines() {
        var buffer = ScreenBuffer(width: 10, height: 2)
        #expect(buffer.write("hello", x: 0, y: 0) == 5)
        #expect(buffer.write("日本語", x: 1, y: 1) == 6)
        #expect(buffer.lines() == ["hello", " 日本語"])
        #expect(buffer[1, 1] == Cell(text: "日"))
        #expect(buffer[2, 1] == Cell(text: ""))
        #expect(buffer[3, 1] == Cell(text: "本"))
    }

    @Test func clipsAtTheRightEdgeWithAnEllipsis() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        #expect(buffer.write("hello world", x: 2, y: 0) == 6)
        #expect(buffer.lines() == ["  hello…"])
    }

    @Test func clipsAtMaxWidth() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        #expect(buffer.write("日本語", x: 0, y: 0, maxWidth: 5) == 5)
        #expect(buffer.write("xyz", x: 5, y: 0, maxWidth: 3) == 3)
        #expect(buffer.lines() == ["日本…xyz"])
    }

    @Test func aWideCharacterStraddlingTheEdgeBecomesTheEllipsis() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        #expect(buffer.write("ab日本", x: 0, y: 0) == 3)
        #expect(buffer.lines() == ["ab…"])
        #expect(buffer[3, 0] == .blank)
    }

    @Test func writesOutsideTheBufferDoNothing() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        #expect(buffer.write("x", x: 0, y: 1) == 0)
        #expect(buffer.write("x", x: 0, y: -1) == 0)
        #expect(buffer.write("x", x: 4, y: 0) == 0)
        #expect(buffer.write("x", x: 0, y: 0, maxWidth: 0) == 0)
        #expect(buffer == ScreenBuffer(width: 4, height: 1))
    }

    @Test func negativeXClipsOnTheLeft() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        #expect(buffer.write("日本語", x: -1, y: 0) == 5)
        #expect(buffer.lines() == [" 本語"])
    }

    @Test func controlCharactersAreDropped() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        #expect(buffer.write("a\u{1B}[2Jb\n", x: 0, y: 0) == 5)
        #expect(buffer.lines() == ["a[2Jb"])
    }

    @Test func overwritingHalfAWideCharacterLeavesASpace() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        buffer.write("日本", x: 0, y: 0)
        buffer.write("x", x: 1, y: 0)
        #expect(buffer.lines() == [" x本"])
        buffer.write("y", x: 3, y: 0)
        #expect(buffer.lines() == [" x y"])
        #expect(buffer[2, 0] == .blank)
    }

    @Test func aWideCharacterInTheLastColumnBecomesASpace() {
        var buffer = ScreenBuffer(width: 3, height: 1)
        buffer[2, 0] = Cell(text: "日")
        #expect(buffer[2, 0] == .blank)
        buffer[0, 0] = Cell(text: "日", style: .bold)
        #expect(buffer[1, 0] == Cell(text: "", style: .bold))
        #expect(buffer.lines() == ["日"])
    }

    @Test func subscriptOutsideReadsBlankAndIgnoresWrites() {
        var buffer = ScreenBuffer(width: 2, height: 1)
        buffer[5, 0] = Cell(text: "x")
        #expect(buffer[5, 0] == .blank)
        #expect(buffer[-1, 0] == .blank)
        #expect(buffer == ScreenBuffer(width: 2, height: 1))
    }

    @Test func fillClipsAndBreaksWideCharacters() {
        var buffer = ScreenBuffer(width: 5, height: 2)
        buffer.write("日本", x: 0, y: 0)
        buffer.fill(Rect(x: 1, y: 0, width: 1, height: 5), with: "#", style: .reverse)
        #expect(buffer.lines() == [" #本", " #"])
        #expect(buffer[1, 1] == Cell(text: "#", style: .reverse))
        #expect(buffer[0, 0] == .blank)
    }

    @Test func setStyleKeepsTextAndStylesWholeWideCharacters() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.write("日本語", x: 0, y: 0)
        buffer.setStyle(Rect(x: 1, y: 0, width: 2, height: 1), style: .bold)
        #expect(buffer.lines() == ["日本語"])
        #expect((0..<6).map { buffer[$0, 0].style } == [.bold, .bold, .bold, .bold, .plain, .plain])
        buffer.updateStyle(buffer.bounds) { $0.foreground = .green }
        #expect(buffer[0, 0].style == CellStyle(foreground: .green, bold: true))
        #expect(buffer[5, 0].style == .fg(.green))
    }

    @Test func styleBuildersCompose() {
        #expect(CellStyle.fg(.green).bg(.black).bolded == CellStyle(foreground: .green, background: .black, bold: true))
        #expect(CellStyle.plain.reversed.dimmed.underlined == CellStyle(reverse: true, dim: true, underline: true))
        #expect(CellStyle.bold.bold)
    }

    @Test func negativeSizesAreEmpty() {
        let buffer = ScreenBuffer(width: -3, height: 2)
        #expect(buffer.width == 0)
        #expect(buffer.lines() == ["", ""])
    }
}
