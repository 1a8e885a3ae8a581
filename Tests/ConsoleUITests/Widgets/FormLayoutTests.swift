import Testing
@testable import ConsoleUI

@Suite("Form layout: word wrap and rows that give way")
struct FormLayoutTests {
    @Test func wrapsAtSpacesWithinTheWidth() {
        #expect(WordWrap.lines("the weights add up to 120 %; lower one", width: 12)
            == ["the weights", "add up to", "120 %; lower", "one"])
    }

    @Test func aPercentSignStaysWithItsNumber() {
        #expect(WordWrap.lines("they add up to 100 % at most", width: 18) == ["they add up to", "100 % at most"])
    }

    @Test func wordsLongerThanTheWidthAreCutByDisplayWidth() {
        #expect(WordWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(WordWrap.lines("日本語テキスト", width: 5) == ["日本", "語テ", "キス", "ト"])
    }

    @Test func tooManyLinesEndInAnEllipsis() {
        #expect(WordWrap.lines("one two three four five", width: 9, maxLines: 2) == ["one two", "three fo…"])
        #expect(WordWrap.lines("", width: 5) == [""])
        #expect(WordWrap.lines("x", width: 0) == [])
    }

    @Test func spacingGoesFirstThenDetailsThenTheBottomIsCut() {
        var layout = RowLayout<String>()
        layout.add("title")
        layout.add("", keep: .spacing)
        layout.add("hint", keep: .detail)
        layout.add("field")
        layout.add(" ", keep: .spacing)
        layout.add("footer", keep: .detail)
        #expect(layout.count == 6)
        #expect(layout.fitting(6) == ["title", "", "hint", "field", " ", "footer"])
        #expect(layout.fitting(5) == ["title", "", "hint", "field", "footer"])
        #expect(layout.fitting(4) == ["title", "hint", "field", "footer"])
        #expect(layout.fitting(3) == ["title", "hint", "field"])
        #expect(layout.fitting(2) == ["title", "field"])
        #expect(layout.fitting(1) == ["title"])
        #expect(layout.fitting(0) == [])
    }
}
