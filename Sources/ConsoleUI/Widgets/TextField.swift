/// A one-line text input with a cursor, edited as readline and browser fields are.
///
/// The cursor counts Characters (grapheme clusters), so `é` or `👍🏽` is one step. Typing inserts at the
/// cursor; ←/→ (Ctrl-B/F) move; Home/End (Ctrl-A/E) jump; Backspace and Delete (Ctrl-D) remove
/// before and at the cursor; Ctrl-U clears. A field can have its whole text selected, as a field
/// focused with Tab has in a browser: the next typed character replaces it, ←/Home and →/End drop the
/// selection at the start and the end, Backspace/Delete clear it.
package struct TextField: Equatable, Sendable {
    /// The text; setting it puts the cursor at the end and drops the selection.
    package var text: String {
        didSet {
            cursor = text.count
            isAllSelected = false
        }
    }
    /// Where the cursor is: the number of characters before it (0…`text.count`).
    package private(set) var cursor: Int
    /// Whether the whole text is selected, so the next typed character replaces it.
    package private(set) var isAllSelected = false

    /// A field holding `text`, the cursor at its end.
    package init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// Selects the whole text (nothing to select when it is empty); the cursor goes to the end.
    package mutating func selectAll() {
        cursor = text.count
        isAllSelected = !text.isEmpty
    }

    /// Moves the cursor to `position` (clamped), dropping the selection.
    package mutating func moveCursor(to position: Int) {
        cursor = min(max(position, 0), text.count)
        isAllSelected = false
    }

    /// Applies an editing key; returns whether the key was consumed.
    @discardableResult
    package mutating func type(_ key: Key) -> Bool {
        switch key {
        case .character(let character) where !character.isNewline:
            insert(character)
        case .backspace:
            if isAllSelected { replaceAll(with: "") } else if cursor > 0 { remove(at: cursor - 1) }
        case .delete, .control("d"):
            if isAllSelected { replaceAll(with: "") } else if cursor < text.count { remove(at: cursor) }
        case .left, .control("b"):
            moveCursor(to: isAllSelected ? 0 : cursor - 1)
        case .right, .control("f"):
            moveCursor(to: isAllSelected ? text.count : cursor + 1)
        case .home, .control("a"):
            moveCursor(to: 0)
        case .end, .control("e"):
            moveCursor(to: text.count)
        case .control("u"):
            replaceAll(with: "")
        default:
            return false
        }
        return true
    }

    private mutating func insert(_ character: Character) {
        if isAllSelected { return replaceAll(with: String(character)) }
        let at = cursor
        text.insert(character, at: text.index(text.startIndex, offsetBy: at))
        cursor = at + 1
    }

    private mutating func remove(at position: Int) {
        text.remove(at: text.index(text.startIndex, offsetBy: position))
        cursor = position
    }

    private mutating func replaceAll(with replacement: String) {
        text = replacement
    }
}

extension TextField {
    /// Draws `label [text▏]` at (x, y), the field reversed when focused.
    static func render(_ field: TextField, label: String, focused: Bool, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let used = buffer.write("\(label) ", x: x, y: y, style: focused ? Palette.key : .plain)
        draw(field, focused: focused, x: x + used, y: y, width: max(0, width - used), into: &buffer)
    }

    /// Draws the field's text in exactly `width` columns: reversed with a `▏` cursor when focused,
    /// underlined otherwise; `…` at either end marks text scrolled out of the box.
    static func draw(_ field: TextField, focused: Bool, x: Int, y: Int, width: Int, focusedStyle: CellStyle = Palette.selected,
                     into buffer: inout ScreenBuffer) {
        guard width > 0 else { return }
        let style = focused ? focusedStyle : CellStyle.underline
        let textStyle = focused && field.isAllSelected ? Palette.selectedText : style
        var column = x
        for piece in field.window(width: width, focused: focused) {
            let pieceStyle = piece.isText ? textStyle : style
            column += buffer.write(piece.text, x: column, y: y, maxWidth: x + width - column, style: pieceStyle)
        }
        if column < x + width { buffer.write(repeating: " ", count: x + width - column, x: column, y: y, style: style) }
    }

    /// One run of what a field shows: its text (escaped), the cursor, or a `…` scroll marker.
    struct Piece: Equatable {
        var text: String
        var isText: Bool
    }

    /// What the field shows in `width` columns, the cursor always inside.
    ///
    /// Text that fits is shown whole. Longer text scrolls by half the box at a time, as readline's
    /// horizontal-scroll mode does, and the end of the text is never followed by empty room while
    /// earlier text is hidden. An unfocused field shows its start, cut with `…`.
    func window(width: Int, focused: Bool) -> [Piece] {
        var cells = text.map { Piece(text: SafeText.escaped(String($0)), isText: true) }
        if focused { cells.insert(Piece(text: "▏", isText: false), at: cursor) }
        let widths = cells.map { DisplayWidth.of($0.text) }
        let total = widths.reduce(0, +)
        guard total > width else { return Self.merged(cells) }
        guard focused else {
            return [Piece(text: DisplayWidth.truncate(text.map { SafeText.escaped(String($0)) }.joined(), toWidth: width), isText: true)]
        }
        let cursorColumn = widths[..<cursor].reduce(0, +)
        let step = max(1, width / 2)
        // The first column shown: a multiple of `step` that leaves the cursor room, never past the tail.
        var start = cursorColumn + 2 <= width ? 0 : ((cursorColumn + 3 - width) + step - 1) / step * step
        start = min(start, total - (width - 1))
        var first = 0, skipped = 0
        while first < cursor, skipped < start {
            skipped += widths[first]
            first += 1
        }
        while first < cursor, !Self.fits(widths, from: first, through: cursor, width: width) { first += 1 }
        var shown: [Piece] = first > 0 ? [Piece(text: "…", isText: false)] : []
        var used = first > 0 ? 1 : 0
        var index = first
        while index < cells.count {
            // Leave a column for the `…` after, unless this is the last cell.
            let room = width - used - (index == cells.count - 1 ? 0 : 1)
            guard widths[index] <= room else { break }
            shown.append(cells[index])
            used += widths[index]
            index += 1
        }
        if index < cells.count { shown.append(Piece(text: "…", isText: false)) }
        return Self.merged(shown)
    }

    /// Whether cells `first…last` fit in `width` with a `…` before (when `first > 0`) and one after.
    private static func fits(_ widths: [Int], from first: Int, through last: Int, width: Int) -> Bool {
        let markers = (first > 0 ? 1 : 0) + (last < widths.count - 1 ? 1 : 0)
        return widths[first...last].reduce(0, +) + markers <= width
    }

    /// Joins neighbouring pieces of the same kind, so a field is drawn in a few writes.
    private static func merged(_ pieces: [Piece]) -> [Piece] {
        var result: [Piece] = []
        for piece in pieces {
            if let last = result.last, last.isText == piece.isText, piece.isText {
                result[result.count - 1].text += piece.text
            } else {
                result.append(piece)
            }
        }
        return result
    }
}
