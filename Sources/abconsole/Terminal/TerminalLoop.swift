import ConsoleUI

/// What the run loop does after a key.
enum LoopDecision: Equatable, Sendable {
    case `continue`
    /// Close the terminal and exit with this code.
    case exit(Int32)
}

/// Renders, reads keys and hands them to `handle` until it exits or a signal arrives.
///
/// Before each frame it reports a new terminal size to `resize` (the first frame's size too); on
/// each input timeout it calls `tick` (to apply job results and poll the store) and renders again.
/// Every key, Ctrl-C included, goes to `handle`, which decides through the keybinding table;
/// SIGINT/SIGTERM/SIGHUP exit 128 + the signal. The terminal is always closed before this returns.
func runTerminalLoop(
    terminal: some TerminalDevice,
    render: (_ width: Int, _ height: Int) -> ScreenBuffer,
    resize: (_ width: Int, _ height: Int) -> Void = { _, _ in },
    handle: (Key) -> LoopDecision,
    tick: () -> Void
) -> Int32 {
    defer { terminal.close() }
    var reported: (width: Int, height: Int)?
    while true {
        if let signal = SignalFlag.received {
            return 128 + signal
        }
        let size = terminal.size
        if reported.map({ $0 != size }) ?? true {
            resize(size.width, size.height)
            reported = size
        }
        terminal.draw(render(size.width, size.height))
        guard let key = terminal.readKey() else {
            if let signal = SignalFlag.received {
                return 128 + signal
            }
            tick()
            continue
        }
        // The size is read again before the next frame.
        if key == .resize { continue }
        if case .exit(let code) = handle(key) {
            return code
        }
    }
}
