/// A key the user pressed, independent of the terminal library.
package enum Key: Hashable, Sendable {
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

extension Key {
    /// How the key is written in help, the key bar and docs/keymap.md: `j`, `↓`, `Esc`, `Ctrl-U`.
    package var label: String {
        switch self {
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .resize: "resize"
        case .function(let number): "F\(number)"
        case .control(let letter): "Ctrl-" + letter.uppercased()
        }
    }
}
