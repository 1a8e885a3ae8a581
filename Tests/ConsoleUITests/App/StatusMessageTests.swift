import ExperimentCore
import Foundation
import Testing
@testable import ConsoleUI

/// Status messages clear on the next key that does something, long ones are cut with a hint, `L` keeps the last ones.
@Suite("Status messages and the message log")
struct StatusMessageTests {
    typealias F = FormsFixture

    @Test func theNextKeyThatActsClearsTheMessageAndOthersKeepIt() throws {
        var state = try F.state(selecting: "search_v2")
        F.send([.character("R")], to: &state)
        #expect(state.message != nil)
        F.send([.function(5)], to: &state)
        #expect(state.message != nil, "a key bound to nothing leaves it")
        F.send([.character("j")], to: &state)
        #expect(state.message == nil)
    }

    @Test func anErrorStaysUntilTheNextKeyNotTheNextJobReport() throws {
        var state = try F.state(selecting: "search_v2")
        F.send([.character("R")], to: &state)
        _ = ConsoleUpdate.update(&state, .resized(width: 100, height: 30), now: Date(timeIntervalSince1970: 0))
        #expect(state.message?.isError == true)
    }

    @Test func aLongMessageIsCutWithTheKeyThatShowsItWhole() throws {
        var state = try F.state(selecting: "checkout_button", readOnly: true)
        _ = ConsoleUpdate.update(&state, .resized(width: 80, height: 24), now: Date(timeIntervalSince1970: 0))
        F.send([.character("n")], to: &state)
        let line = ConsoleView.render(state, width: 80, height: 24).lines()[22]
        #expect(line == " read-only console (opened with --read-only): cannot create a… L: whole message")
    }

    @Test func theLogKeepsTheLastFiftyStampedWithTheTimeTheyWereShown() throws {
        var state = try F.state(selecting: "search_v2")
        let start = Date(timeIntervalSince1970: 1_793_793_600)  // 2026-11-04 12:00:00 UTC
        for second in 0..<55 {
            _ = ConsoleUpdate.update(&state, .key(.character("R")), now: start.addingTimeInterval(Double(second)))
        }
        #expect(state.messageLog.count == AppState.messageLogLimit)
        #expect(state.messageLog.first?.at == start.addingTimeInterval(5))
        #expect(state.messageLog.last == LoggedMessage(message: .error("`search_v2` is a draft: start it before resolving"), at: start.addingTimeInterval(54)))
    }

    @Test func lOpensTheLogNewestFirstWithWholeMessagesWrapped() throws {
        var state = try F.state(selecting: "checkout_button", readOnly: true)
        _ = ConsoleUpdate.update(&state, .resized(width: 80, height: 24), now: Date(timeIntervalSince1970: 0))
        let noon = Date(timeIntervalSince1970: 1_793_793_600)
        _ = ConsoleUpdate.update(&state, .key(.character("n")), now: noon)
        _ = ConsoleUpdate.update(&state, .key(.character("s")), now: noon.addingTimeInterval(65))
        _ = ConsoleUpdate.update(&state, .key(.character("L")), now: noon.addingTimeInterval(70))
        #expect(state.showsHelp && state.help.page == .messages)
        let lines = ConsoleView.render(state, width: 80, height: 24).lines()
        Snapshot.assert(lines, named: "message-log-80x24")
        #expect(lines.contains { $0.contains("12:01:05 UTC read-only console (opened with --read-only):") })
        #expect(lines.contains { $0.contains("12:00:00 UTC read-only console (opened with --read-only):") })
        #expect(lines.contains { $0.contains("cannot create an experiment; restart without") })
        F.send([.escape], to: &state)
        #expect(!state.showsHelp)
    }
}
