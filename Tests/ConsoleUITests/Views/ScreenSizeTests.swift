import ExperimentCore
import Testing
@testable import ConsoleUI

/// The whitelist, history and inspector screens (and their forms) draw sensibly at any size.
@Suite("Whitelist, history, inspector: any terminal size")
struct ScreenSizeTests {
    typealias F = ScreenFixtures

    static let journeys: [(name: String, keys: [Key])] = [
        ("whitelist", [.character("w"), .character("j")]),
        ("whitelist filter", [.character("w"), .character("/")] + F.typing("qa")),
        ("whitelist form", [.character("w"), .character("a")] + F.typing("user-1") + [.tab]),
        ("import form", [.character("w"), .character("I")] + F.typing("x.csv")),
        ("remove confirmation", [.character("w"), .character("d")]),
        ("history", [.character("H")]),
        ("inspector", [.character("i")] + F.typing("user-1") + [.tab] + F.typing("device-7f3a") + [.enter, .down]),
    ]

    @Test(arguments: [(60, 16), (61, 17), (80, 24), (100, 30), (160, 50), (240, 20)])
    func everyScreenFitsItsTerminal(width: Int, height: Int) throws {
        for journey in Self.journeys {
            var state = try F.state()
            F.send(journey.keys, to: &state)
            let buffer = ConsoleView.render(state, width: width, height: height)
            let lines = buffer.lines()
            #expect(lines.count == height, "\(journey.name)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(journey.name) at \(width)×\(height)")
            #expect(!lines[1...].joined().isEmpty, "\(journey.name) at \(width)×\(height) drew nothing")
        }
    }

    @Test func inspectorMarkerStaysOnTheStripAtAnyWidth() throws {
        for width in [60, 73, 100, 131] {
            var state = try F.state()
            F.send([.character("i")] + F.typing("user-42") + [.enter], to: &state)
            let lines = ConsoleView.render(state, width: width, height: 30).lines()
            let marker = try #require(lines.firstIndex { $0.contains("▲") })
            let column = try #require(lines[marker].firstIndex(of: "▲")).utf16Offset(in: lines[marker])
            // user-42 has bucket 1165 of account_add_funds: column 1165 × width / 10000.
            #expect(lines[marker].prefix(column).allSatisfy { $0 == " " })
            #expect(column == 1165 * width / 10000)
            #expect(lines[marker].contains("bucket 1165 of 10000"))
        }
    }
}
