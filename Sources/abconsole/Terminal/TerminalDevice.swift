import ConsoleUI

/// What the run loop needs from a terminal: `NcursesTerminal`, or a fake in tests.
protocol TerminalDevice: AnyObject {
    /// The current size in cells.
    var size: (width: Int, height: Int) { get }
    /// Shows `buffer`.
    func draw(_ buffer: ScreenBuffer)
    /// The next key, or nil when none arrived within the input timeout.
    func readKey() -> Key?
    /// Gives the terminal back to the shell; safe to call more than once.
    func close()
}
