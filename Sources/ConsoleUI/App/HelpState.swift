/// The scrollable panel over the screen (`?` keys, `L` message log): which page, where it is scrolled, what is searched.
package struct HelpState: Equatable, Sendable {
    /// What the panel shows.
    package enum Page: Equatable, Sendable { case keys, messages }

    package var page = Page.keys
    /// The first line shown.
    package var top = 0
    /// The text searched for (`/`), kept after Enter for `n`/`N`.
    package var needle = ""
    /// Whether keys type into the search (`/` until Enter or Esc).
    package var isSearching = false
    /// The line of the current match, if any.
    package var current: Int?

    package init(page: Page = .keys) { self.page = page }
}

extension HelpState {
    /// Handles a key while the panel is open; returns whether the panel closes.
    ///
    /// `lines` are the panel's lines (`HelpOverlay.lines`) and `visible` how many of them it shows.
    mutating func handle(_ key: Key, _ intent: Intent?, lines: [HelpLine], visible: Int) -> Bool {
        if isSearching { return handleSearch(key, intent, lines: lines, visible: visible) }
        switch intent {
        case .moveDown?: scroll(to: top + 1, lines.count, visible)
        case .moveUp?: scroll(to: top - 1, lines.count, visible)
        case .pageDown?: scroll(to: top + max(1, visible - 1), lines.count, visible)
        case .pageUp?: scroll(to: top - max(1, visible - 1), lines.count, visible)
        case .top?: scroll(to: 0, lines.count, visible)
        case .bottom?: scroll(to: lines.count, lines.count, visible)
        case .filter?:
            isSearching = true
            needle = ""
            current = nil
        case .nextMatch?: step(forward: true, lines, visible)
        case .previousMatch?: step(forward: false, lines, visible)
        case .back?: return true
        default: break
        }
        return false
    }

    /// Typing the search: each key jumps to the first match from the top shown; Enter keeps it, Esc clears it.
    private mutating func handleSearch(_ key: Key, _ intent: Intent?, lines: [HelpLine], visible: Int) -> Bool {
        switch intent {
        case .submit?:
            isSearching = false
            return false
        case .cancel?:
            isSearching = false
            needle = ""
            current = nil
            return false
        case .moveDown?, .moveUp?:
            step(forward: intent == .moveDown, lines, visible)
            return false
        default:
            break
        }
        switch key {
        case .backspace: if !needle.isEmpty { needle.removeLast() }
        case .control("u"): needle = ""
        case .character(let character) where !character.isNewline: needle.append(character)
        default: return false
        }
        let matches = Self.matches(of: needle, in: lines)
        current = matches.first { $0 >= top } ?? matches.first
        reveal(current, lines.count, visible)
        return false
    }

    /// The lines that contain `needle`, ignoring case (none for an empty needle).
    static func matches(of needle: String, in lines: [HelpLine]) -> [Int] {
        guard !needle.isEmpty else { return [] }
        return lines.indices.filter { lines[$0].searchText.localizedCaseInsensitiveContains(needle) }
    }

    /// `n`/`N`: the next or previous match after the current one, wrapping around.
    private mutating func step(forward: Bool, _ lines: [HelpLine], _ visible: Int) {
        let matches = Self.matches(of: needle, in: lines)
        guard !matches.isEmpty else { return }
        let from = current ?? (forward ? top - 1 : top)
        current = forward ? (matches.first { $0 > from } ?? matches.first) : (matches.last { $0 < from } ?? matches.last)
        reveal(current, lines.count, visible)
    }

    /// Scrolls so `line` is shown (at the top when it was out of view).
    private mutating func reveal(_ line: Int?, _ count: Int, _ visible: Int) {
        guard let line, line < top || line >= top + visible else { return }
        scroll(to: line, count, visible)
    }

    /// Puts line `first` at the top, clamped so the last page is full.
    private mutating func scroll(to first: Int, _ count: Int, _ visible: Int) {
        top = min(max(first, 0), max(0, count - visible))
    }
}
