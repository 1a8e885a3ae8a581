import ConsoleUI
import Testing
@testable import abconsole

/// A terminal that replays keys and records what was drawn.
final class FakeTerminal: TerminalDevice {
    var keys: [Key?]
    var drawn: [ScreenBuffer] = []
    var closeCount = 0
    init(keys: [Key?]) { self.keys = keys }
    var size: (width: Int, height: Int) { (10, 2) }
    func draw(_ buffer: ScreenBuffer) { drawn.append(buffer) }
    func readKey() -> Key? { keys.isEmpty ? .character("q") : keys.removeFirst() }
    func close() { closeCount += 1 }
}

/// `runTerminalLoop` over a fake terminal: exit codes, ticks on timeouts, and the terminal always closed.
struct TerminalLoopTests {
    @Test func exitsWithHandlerCodeAndCloses() {
        let fake = FakeTerminal(keys: [.down, nil, .character("x")])
        var handled: [Key] = []
        var ticks = 0
        let code = runTerminalLoop(
            terminal: fake,
            render: { ScreenBuffer(width: $0, height: $1) },
            handle: { key in
                handled.append(key)
                return key == .character("x") ? .exit(3) : .continue
            },
            tick: { ticks += 1 }
        )
        #expect(code == 3)
        #expect(handled == [.down, .character("x")])
        #expect(ticks == 1)
        #expect(fake.drawn.count == 3)
        #expect(fake.closeCount == 1)
    }

    @Test func controlCGoesToTheHandlerLikeAnyKey() {
        let fake = FakeTerminal(keys: [.control("c")])
        var handled: [Key] = []
        let code = runTerminalLoop(
            terminal: fake, render: { ScreenBuffer(width: $0, height: $1) },
            handle: { key in
                handled.append(key)
                return key == .control("c") ? .exit(130) : .continue
            }, tick: {}
        )
        #expect(code == 130)
        #expect(handled == [.control("c")])
        #expect(fake.closeCount == 1)
    }

    @Test func reportsTheSizeBeforeTheFirstFrameAndAfterAResize() {
        let fake = FakeTerminal(keys: [.resize, .character("x")])
        var sizes: [String] = []
        var handled: [Key] = []
        let code = runTerminalLoop(
            terminal: fake, render: { ScreenBuffer(width: $0, height: $1) },
            resize: { sizes.append("\($0)×\($1)") },
            handle: { key in
                handled.append(key)
                return .exit(0)
            }, tick: {}
        )
        #expect(code == 0)
        #expect(sizes == ["10×2"], "the size did not change, so it is reported once")
        #expect(handled == [.character("x")], "a resize is the loop's business, not a key for the console")
    }
}
