/// A key the user pressed, independent of the terminal library.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, escape, tab, backTab, backspace, delete
    /// The terminal changed size; the run loop reads the new size and reports it as `Action.resized`.
    case resize
    /// A function key, F1 is `.function(1)`.
    case function(Int)
    /// Ctrl with a letter, given as the lowercase letter: Ctrl-A is `.control("a")`.
    case control(Character)
}
