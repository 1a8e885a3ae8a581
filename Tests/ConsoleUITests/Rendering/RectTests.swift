import Testing
@testable import ConsoleUI

@Suite("Rect")
struct RectTests {
    @Test func insetShrinksAndNeverGoesNegative() {
        let rect = Rect(x: 0, y: 0, width: 10, height: 4)
        #expect(rect.inset(by: 1) == Rect(x: 1, y: 1, width: 8, height: 2))
        #expect(rect.inset(by: 3) == Rect(x: 3, y: 3, width: 4, height: 0))
        #expect(rect.inset(left: 2) == Rect(x: 2, y: 0, width: 8, height: 4))
    }

    @Test func splitsRowsOffTheTopAndBottom() {
        let rect = Rect(x: 1, y: 2, width: 5, height: 10)
        let (header, rest) = rect.split(top: 2)
        #expect(header == Rect(x: 1, y: 2, width: 5, height: 2))
        #expect(rest == Rect(x: 1, y: 4, width: 5, height: 8))
        let (body, footer) = rest.split(bottom: 1)
        #expect(body == Rect(x: 1, y: 4, width: 5, height: 7))
        #expect(footer == Rect(x: 1, y: 11, width: 5, height: 1))
        #expect(rect.split(top: 20).rest.isEmpty)
        #expect(rect.row(3) == Rect(x: 1, y: 5, width: 5, height: 1))
        #expect(rect.row(10).isEmpty)
    }

    @Test func intersectionClips() {
        let a = Rect(x: 0, y: 0, width: 4, height: 4)
        #expect(a.intersection(Rect(x: 2, y: 3, width: 5, height: 5)) == Rect(x: 2, y: 3, width: 2, height: 1))
        #expect(a.intersection(Rect(x: 9, y: 9, width: 1, height: 1)).isEmpty)
    }
}
