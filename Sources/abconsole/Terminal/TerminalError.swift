/// Why the console could not take over the terminal.
enum TerminalError: Error, Equatable {
    /// Standard input or output is not an interactive terminal, or TERM cannot draw.
    case notATerminal(String)
    /// ncurses refused to start on this terminal.
    case cannotOpen(String)

    /// A sentence a person can act on.
    var message: String {
        switch self {
        case .notATerminal(let reason), .cannotOpen(let reason):
            return reason
        }
    }
}
