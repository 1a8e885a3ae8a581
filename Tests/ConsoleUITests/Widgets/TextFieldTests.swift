import Testing
@testable import ConsoleUI

@Suite("Text field: cursor, editing keys, scrolling")
struct TextFieldTests {
    /// `field` after each key in turn.
    func typed(_ field: TextField, _ keys: [Key]) -> TextField {
        var field = field
        for key in keys { field.type(key) }
        return field
    }

    func chars(_ text: String) -> [Key] { text.map(Key.character) }

    /// The field drawn focused in `width` columns, as text.
    func drawn(_ field: TextField, width: Int, focused: Bool = true) -> String {
        var buffer = ScreenBuffer(width: width, height: 1)
        TextField.draw(field, focused: focused, x: 0, y: 0, width: width, into: &buffer)
        return buffer.lines()[0]
    }

    @Test func typingInsertsAtTheCursorAndArrowsMoveIt() {
        var field = typed(TextField(), chars("helo"))
        #expect(field.text == "helo" && field.cursor == 4)
        field = typed(field, [.left, .character("l")])
        #expect(field.text == "hello" && field.cursor == 4)
        field = typed(field, [.home, .character(">"), .end, .character("!")])
        #expect(field.text == ">hello!" && field.cursor == 7)
        field = typed(field, [.control("a"), .right, .control("e"), .left, .left])
        #expect(field.cursor == 5, "Ctrl-A/Ctrl-E jump like Home/End; → and ← step one character")
        field = typed(field, [.left, .left, .left, .left, .left, .left, .left])
        #expect(field.cursor == 0, "← stops at the start")
        field = typed(field, Array(repeating: .right, count: 10))
        #expect(field.cursor == 7, "→ stops at the end")
    }

    @Test func backspaceAndDeleteRemoveBeforeAndAtTheCursor() {
        var field = typed(TextField("abcdef"), [.home, .right, .right])
        field = typed(field, [.backspace])
        #expect(field.text == "acdef" && field.cursor == 1)
        field = typed(field, [.delete])
        #expect(field.text == "adef" && field.cursor == 1)
        field = typed(field, [.control("d")])
        #expect(field.text == "aef" && field.cursor == 1)
        field = typed(field, [.end, .delete])
        #expect(field.text == "aef" && field.cursor == 3, "Delete at the end removes nothing")
        field = typed(field, [.home, .backspace])
        #expect(field.text == "aef" && field.cursor == 0, "Backspace at the start removes nothing")
        field = typed(field, [.control("u")])
        #expect(field == TextField(), "Ctrl-U clears")
    }

    @Test func theCursorStepsOverWholeCharactersWideOrCombined() {
        var field = TextField("日本👍🏽e\u{301}")
        #expect(field.cursor == 4)
        field = typed(field, [.left, .backspace])
        #expect(field.text == "日本e\u{301}" && field.cursor == 2, "the thumbs-up with its skin tone is one character")
        field = typed(field, [.home, .right, .character("x")])
        #expect(field.text == "日x本e\u{301}")
        #expect(drawn(field, width: 10) == "日x▏本é", "a wide character takes two columns; the cursor sits between characters")
    }

    @Test func aSelectedTextIsReplacedByTypingAndLeftByTheArrows() {
        var field = TextField("33.335")
        field.selectAll()
        #expect(field.isAllSelected && field.cursor == 6)
        #expect(typed(field, chars("50")) == TextField("50"), "the first character replaces the selection, the next appends")
        #expect(typed(field, [.backspace]) == TextField())
        #expect(typed(field, [.delete]) == TextField())
        let home = typed(field, [.left])
        #expect(!home.isAllSelected && home.cursor == 0 && home.text == "33.335", "← drops the selection at the start")
        let end = typed(field, [.right])
        #expect(!end.isAllSelected && end.cursor == 6, "→ drops it at the end")
        #expect(typed(field, [.end, .character("1")]).text == "33.3351")
        var empty = TextField()
        empty.selectAll()
        #expect(!empty.isAllSelected, "an empty field has nothing to select")
    }

    @Test func settingTheTextPutsTheCursorAtTheEndAndDropsTheSelection() {
        var field = TextField("abc")
        field.selectAll()
        field.text = "hello"
        #expect(field.cursor == 5 && !field.isAllSelected)
    }

    @Test func aFieldThatFitsIsShownWholeWithTheCursor() {
        let field = typed(TextField("hello"), [.left, .left])
        #expect(drawn(field, width: 10) == "hel▏lo")
        #expect(drawn(field, width: 10, focused: false) == "hello")
        #expect(drawn(TextField("hello"), width: 6) == "hello▏")
    }

    @Test func aLongFieldScrollsSoTheCursorStaysVisible() {
        let text = "abcdefghijklmnopqrstuvwxyz0123456789"  // 36 characters
        let end = TextField(text)
        #expect(drawn(end, width: 12) == "…0123456789▏", "at the end: the tail, with … for the hidden start")
        let home = typed(end, [.home])
        #expect(drawn(home, width: 12) == "▏abcdefghij…", "at the start: the head, with … for the hidden rest")
        let middle = typed(home, Array(repeating: .right, count: 15))
        let shown = drawn(middle, width: 12)
        #expect(shown.hasPrefix("…") && shown.hasSuffix("…") && shown == "…ghijklmno▏…", "in the middle: … on both sides (\(shown))")
        #expect(drawn(end, width: 12, focused: false) == "abcdefghijk…", "unfocused: the start, cut with …")
    }

    @Test func scrollingMovesByHalfTheBoxSoSmallMovesKeepTheView() {
        let field = typed(TextField(String(repeating: "x", count: 10) + "ABCDEFGHIJ" + String(repeating: "y", count: 20)), [.home])
        var views: [String] = []
        var moving = field
        for _ in 0..<20 {
            moving.type(.right)
            views.append(drawn(moving, width: 12))
        }
        for view in views {
            #expect(view.contains("▏") && DisplayWidth.of(view) <= 12, "\(view)")
        }
        #expect(Set(views.map { $0.replacingOccurrences(of: "▏", with: "") }).count < 10, "the view moves in steps, not with every key")
    }

    @Test func wideCharactersNeverSplitWhenScrolling() {
        let field = TextField(String(repeating: "日本", count: 10))
        let shown = drawn(field, width: 9)
        #expect(shown == "…本日本▏", "the cursor's column is kept; a wide character that would split is left out")
        #expect(DisplayWidth.of(shown) <= 9)
        let home = drawn(typed(field, [.home]), width: 9)
        #expect(home == "▏日本日…")
    }

    @Test func theCursorIsShownAtEveryPositionInEveryBoxFromThreeColumns() {
        let field = TextField("ab日本cdefg👍🏽hijklmnop")
        for width in 3...20 {
            for position in 0...field.text.count {
                var moved = field
                moved.moveCursor(to: position)
                let shown = drawn(moved, width: width)
                #expect(shown.contains("▏") && DisplayWidth.of(shown) <= width, "width \(width), cursor \(position): \(shown)")
            }
        }
    }
}
