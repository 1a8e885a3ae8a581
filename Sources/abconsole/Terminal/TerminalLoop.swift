import ConsoleUI

/// What the run loop does after a key.
enum LoopDecision: Equatable, Sendable {
    case `continue`
    /// Close the terminal and exit with this code.
    case exit(Int32)
}

/// Renders, reads keys and hands them to `handle` until it exits or a signal arrives.
///
/// On each input timeout it calls `tick` (e.g. to poll the store) and renders again.
/// Ctrl-C as a key exits 130; SIGINT/SIGTERM/SIGHUP exit 128 + the signal. The terminal
/// is always closed before this returns the exit code.
func runTerminalLoop(
    terminal: some TerminalDevice,
    render: (_ width: Int, _ height: Int) -> ScreenBuffer,
    handle: (Key) -> LoopDecision,
    tick: () -> Void
) -> Int32 {
    defer { terminal.close() }
    while true {
        if let signal = SignalFlag.received {
            return 128 + signal
        }
        let size = terminal.size
        terminal.draw(render(size.width, size.height))
        guard let key = terminal.readKey() else {
            if let signal = SignalFlag.received {
                return 128 + signal
            }
            tick()
            continue
        }
        if key == .control("c") {
            return 130
        }
        if case .exit(let code) = handle(key) {
            return code
        }
    }
}
