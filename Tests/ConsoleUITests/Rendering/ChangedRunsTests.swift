import Testing
@testable import ConsoleUI

@Suite("Changed runs")
struct ChangedRunsTests {
    @Test func everythingChangesWithoutAPreviousBuffer() {
        var buffer = ScreenBuffer(width: 3, height: 2)
        buffer.write("ab", x: 0, y: 0)
        #expect(buffer.changedRuns(since: nil) == [
            CellRun(x: 0, y: 0, style: .plain, texts: ["a", "b", " "]),
            CellRun(x: 0, y: 1, style: .plain, texts: [" ", " ", " "]),
        ])
    }

    @Test func everythingChangesWhenTheSizeDiffers() {
        let old = ScreenBuffer(width: 2, height: 1)
        let new = ScreenBuffer(width: 3, height: 1)
        #expect(new.changedRuns(since: old) == [CellRun(x: 0, y: 0, style: .plain, texts: [" ", " ", " "])])
    }

    @Test func anUnchangedBufferHasNoRuns() {
        var buffer = ScreenBuffer(width: 8, height: 2)
        buffer.write("日本 ok", x: 0, y: 1, style: .bold)
        #expect(buffer.changedRuns(since: buffer) == [])
    }

    @Test func onlyTheChangedCellsAreInRuns() {
        var old = ScreenBuffer(width: 12, height: 2)
        old.write("hello world", x: 0, y: 0)
        var new = old
        new.write("O", x: 4, y: 0)
        new.write("W", x: 6, y: 0)
        new.write("LD", x: 9, y: 0)
        #expect(new.changedRuns(since: old) == [
            CellRun(x: 4, y: 0, style: .plain, texts: ["O"]),
            CellRun(x: 6, y: 0, style: .plain, texts: ["W"]),
            CellRun(x: 9, y: 0, style: .plain, texts: ["L", "D"]),
        ])
    }

    @Test func runsSplitWhereTheStyleChanges() {
        let old = ScreenBuffer(width: 6, height: 1)
        var new = old
        new.write("ab", x: 0, y: 0, style: .bold)
        new.write("cd", x: 2, y: 0)
        new.write("e", x: 4, y: 0, style: .fg(.red))
        #expect(new.changedRuns(since: old) == [
            CellRun(x: 0, y: 0, style: .bold, texts: ["a", "b"]),
            CellRun(x: 2, y: 0, style: .plain, texts: ["c", "d"]),
            CellRun(x: 4, y: 0, style: .fg(.red), texts: ["e"]),
        ])
    }

    @Test func aStyleOnlyChangeIsARun() {
        var old = ScreenBuffer(width: 5, height: 1)
        old.write("abcde", x: 0, y: 0)
        var new = old
        new.setStyle(Rect(x: 1, y: 0, width: 2, height: 1), style: .reverse)
        #expect(new.changedRuns(since: old) == [CellRun(x: 1, y: 0, style: .reverse, texts: ["b", "c"])])
    }

    @Test func aWideCharacterReplacingAWideOneIsOneCell() {
        var old = ScreenBuffer(width: 6, height: 1)
        old.write("日本", x: 0, y: 0)
        var new = old
        new.write("月", x: 2, y: 0)
        // The continuation did not change; the backend paints 月 over both columns.
        #expect(new.changedRuns(since: old) == [CellRun(x: 2, y: 0, style: .plain, texts: ["月"])])
    }

    @Test func aWideCharacterOverNarrowOnesIncludesItsContinuation() {
        var old = ScreenBuffer(width: 4, height: 1)
        old.write("abcd", x: 0, y: 0)
        var new = old
        new.write("月", x: 1, y: 0)
        #expect(new.changedRuns(since: old) == [CellRun(x: 1, y: 0, style: .plain, texts: ["月", ""])])
        #expect(new.changedRuns(since: old).first?.text == "月")
    }

    @Test func aNarrowCharacterOverAWideOneRepaintsBothColumns() {
        var old = ScreenBuffer(width: 4, height: 1)
        old.write("日本", x: 0, y: 0)
        var new = old
        new.write("x", x: 1, y: 0)
        #expect(new.changedRuns(since: old) == [CellRun(x: 0, y: 0, style: .plain, texts: [" ", "x"])])
    }
}
