import ExperimentTestSupport
import Testing
@testable import ConsoleUI
import ExperimentCore

/// `write` measures each character once and skips measuring printable ASCII; these compare it with
/// the straightforward version (truncate, then measure and place each character) on random text.
@Suite("Screen buffer: write against the straightforward version")
struct ScreenBufferWriteTests {
    static let alphabet: [Character] = ["a", "Z", " ", "~", "…", "█", "·", "é", "e\u{301}", "日", "😀", "\u{1B}", "\t", "\u{301}", "\u{7F}", "₩"]

    /// The write the buffer had before: `DisplayWidth.truncate`, then each character measured again.
    static func reference(_ buffer: inout ScreenBuffer, _ text: String, x: Int, y: Int, maxWidth: Int?, style: CellStyle) -> Int {
        guard y >= 0, y < buffer.height, x < buffer.width else { return 0 }
        let limit = min(maxWidth ?? Int.max, buffer.width - x)
        guard limit > 0 else { return 0 }
        var column = x
        for character in DisplayWidth.truncate(text, toWidth: limit) {
            let columns = DisplayWidth.of(character)
            guard columns > 0 else { continue }
            if column >= 0 {
                buffer[column, y] = Cell(text: String(character), style: style)
            } else if column + columns > 0 {
                buffer[0, y] = Cell(text: " ", style: style)
            }
            column += columns
        }
        return max(0, column - max(x, 0))
    }

    /// A 12×2 buffer with wide characters already in it, so overwriting halves is exercised.
    static func background() -> ScreenBuffer {
        var buffer = ScreenBuffer(width: 12, height: 2)
        buffer.write("x日本語yz😀ab", x: 0, y: 0, style: .bold)
        return buffer
    }

    @Test func writeMatchesTheStraightforwardVersion() {
        var generator = SplitMix64(seed: 11)
        func number(_ below: Int) -> Int { Int(generator.next() % UInt64(below)) }
        for _ in 0..<5_000 {
            let ascii = number(2) == 0
            let text = String((0..<number(16)).map { _ in ascii ? Self.alphabet[number(4)] : Self.alphabet[number(Self.alphabet.count)] })
            let x = number(16) - 3, y = number(3), maxWidth = number(3) == 0 ? nil : number(14) - 1
            var expected = Self.background(), actual = Self.background()
            let expectedWidth = Self.reference(&expected, text, x: x, y: y, maxWidth: maxWidth, style: .underline)
            let actualWidth = actual.write(text, x: x, y: y, maxWidth: maxWidth, style: .underline)
            #expect(actual == expected, "\(text.debugDescription) at \(x),\(y) max \(String(describing: maxWidth))")
            #expect(actualWidth == expectedWidth, "\(text.debugDescription) at \(x),\(y) max \(String(describing: maxWidth))")
        }
    }

    @Test func writeRepeatingMatchesWritingTheRepeatedString() {
        var generator = SplitMix64(seed: 12)
        func number(_ below: Int) -> Int { Int(generator.next() % UInt64(below)) }
        for character in ["█", "·", "a", "日", "\u{1B}", "─"] as [Character] {
            for _ in 0..<500 {
                let count = number(15), x = number(16) - 3, y = number(3), maxWidth = number(3) == 0 ? nil : number(14) - 1
                var expected = Self.background(), actual = Self.background()
                let expectedWidth = Self.reference(&expected, String(repeating: character, count: count), x: x, y: y, maxWidth: maxWidth, style: .bold)
                let actualWidth = actual.write(repeating: character, count: count, x: x, y: y, maxWidth: maxWidth, style: .bold)
                #expect(actual == expected, "\(count) × \(character.debugDescription) at \(x),\(y) max \(String(describing: maxWidth))")
                #expect(actualWidth == expectedWidth)
            }
        }
    }
}
