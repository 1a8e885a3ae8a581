/// A grid of cells that views render into; the terminal backend paints its changes.
///
/// Invariant: a wide character is a cell with the character followed by a continuation
/// cell ("") of the same style. Every mutation keeps it, turning the surviving half of
/// a wide character that gets overwritten into a space.
package struct ScreenBuffer: Equatable, Sendable {
    package let width: Int
    package let height: Int
    private var cells: [Cell]

    /// A buffer of blank cells; negative sizes count as zero.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle at the origin.
    package var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at (x, y); outside the buffer it reads as blank and writes are ignored.
    ///
    /// Setting stores the first grapheme cluster of the text (a space when there is none
    /// or it has no width); a wide one also takes the cell to its right.
    package subscript(x: Int, y: Int) -> Cell {
        get {
            guard bounds.contains(x: x, y: y) else { return .blank }
            return cells[index(x, y)]
        }
        set {
            guard bounds.contains(x: x, y: y) else { return }
            let character = newValue.text.first ?? " "
            let columns = DisplayWidth.of(character)
            place(columns == 0 ? " " : String(character), wide: columns == 2, x: x, y: y, style: newValue.style)
        }
    }

    /// Writes `text` from (x, y) by display width and returns the columns it used.
    ///
    /// The text is clipped at the buffer's right edge and at `maxWidth`, ending in "…"
    /// when it does not fit; a wide character is never split. Characters without width
    /// (controls, stray combining marks) are dropped: pass untrusted text through
    /// `SafeText.escaped` first to show them instead.
    @discardableResult
    package mutating func write(
        _ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: CellStyle = .plain
    ) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(maxWidth ?? Int.max, width - x)
        guard limit > 0 else { return 0 }
        if x >= 0, let used = writePrintableASCII(text, x: x, y: y, limit: limit, style: style) { return used }
        // One pass, measuring each character once: place while the text stays within the budget
        // that leaves room for "…"; at the first character beyond it, the text fits only if that
        // character ends within `limit` and nothing wider follows (as `DisplayWidth.truncate`).
        let budget = limit - 1
        var column = x
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            let columns = DisplayWidth.of(character)
            guard columns > 0 else { continue }
            if column - x + columns > budget {
                let fits = column - x + columns <= limit && !text[index...].contains { DisplayWidth.of($0) > 0 }
                if fits {
                    placeClipped(character, columns: columns, x: column, y: y, style: style)
                } else {
                    placeClipped("…", columns: 1, x: column, y: y, style: style)
                }
                column += fits ? columns : 1
                break
            }
            placeClipped(character, columns: columns, x: column, y: y, style: style)
            column += columns
        }
        return max(0, column - max(x, 0))
    }

    /// Writes `count` copies of `character` from (x, y) as `write(String(repeating:count:))` does,
    /// measuring the character once; for glyphs that do not join with themselves (bars, rules).
    @discardableResult
    package mutating func write(
        repeating character: Character, count: Int, x: Int, y: Int, maxWidth: Int? = nil, style: CellStyle = .plain
    ) -> Int {
        guard y >= 0, y < height, x < width, count > 0 else { return 0 }
        let limit = min(maxWidth ?? Int.max, width - x)
        let columns = DisplayWidth.of(character)
        guard limit > 0, columns > 0 else { return 0 }
        let fits = count <= limit / columns
        let placed = fits ? count : (limit - 1) / columns
        var column = x
        for _ in 0..<placed {
            placeClipped(character, columns: columns, x: column, y: y, style: style)
            column += columns
        }
        if !fits {
            placeClipped("…", columns: 1, x: column, y: y, style: style)
            column += 1
        }
        return max(0, column - max(x, 0))
    }

    /// Places a character of `columns` columns at `x`; left of the buffer it is dropped, and a
    /// wide one cut by the left edge leaves a space.
    private mutating func placeClipped(_ character: Character, columns: Int, x: Int, y: Int, style: CellStyle) {
        if x >= 0 {
            place(String(character), wide: columns == 2, x: x, y: y, style: style)
        } else if x + columns > 0 {
            place(" ", wide: false, x: 0, y: y, style: style)
        }
    }

    /// `write` for text of printable ASCII only (every byte one column), without measuring
    /// characters; nil for any other text.
    private mutating func writePrintableASCII(_ text: String, x: Int, y: Int, limit: Int, style: CellStyle) -> Int? {
        let written: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let fits = bytes.count <= limit
            let count = fits ? bytes.count : limit - 1
            for offset in 0..<count {
                place(String(Unicode.Scalar(bytes[offset])), wide: false, x: x + offset, y: y, style: style)
            }
            if !fits { place("…", wide: false, x: x + count, y: y, style: style) }
            return fits ? count : limit
        }
        return written ?? nil
    }

    /// Fills `rect` (clipped to the buffer) with a single-column character in `style`.
    package mutating func fill(_ rect: Rect, with character: Character = " ", style: CellStyle = .plain) {
        let area = rect.intersection(bounds)
        let text = DisplayWidth.of(character) == 1 ? String(character) : " "
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                place(text, wide: false, x: x, y: y, style: style)
            }
        }
    }

    /// Sets the style of every cell in `rect`, keeping the text.
    package mutating func setStyle(_ rect: Rect, style: CellStyle) {
        updateStyle(rect) { $0 = style }
    }

    /// Changes the style of every cell in `rect`, keeping the text (e.g. `{ $0.reverse = true }`).
    ///
    /// A wide character cut by the rectangle's edge changes as a whole.
    package mutating func updateStyle(_ rect: Rect, _ change: (inout CellStyle) -> Void) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            var first = area.x
            var last = area.maxX - 1
            if cells[index(first, y)].isContinuation, first > 0 {
                first -= 1
            }
            if last + 1 < width, cells[index(last + 1, y)].isContinuation {
                last += 1
            }
            for x in first...last {
                change(&cells[index(x, y)].style)
            }
        }
    }

    /// Each row as plain text with trailing spaces removed, for whole-screen tests.
    package func lines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width {
                line += cells[index(x, y)].text
            }
            while line.hasSuffix(" ") {
                line.removeLast()
            }
            return line
        }
    }

    /// The runs of consecutive cells that differ from `old`, split where the style changes.
    ///
    /// Every cell is in a run when `old` is nil or of another size. A run that would start
    /// on the right half of a wide character starts on its left half instead, so the
    /// backend can always paint whole characters.
    package func changedRuns(since old: ScreenBuffer?) -> [CellRun] {
        let previous = old.flatMap { $0.width == width && $0.height == height ? $0 : nil }
        func changed(_ i: Int) -> Bool { previous.map { $0.cells[i] != cells[i] } ?? true }
        var runs: [CellRun] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                guard changed(index(x, y)) else {
                    x += 1
                    continue
                }
                let style = cells[index(x, y)].style
                var start = x
                var texts: [String] = []
                if cells[index(x, y)].isContinuation, x > 0 {
                    start = x - 1
                    texts.append(cells[index(start, y)].text)
                }
                while x < width, changed(index(x, y)), cells[index(x, y)].style == style {
                    texts.append(cells[index(x, y)].text)
                    x += 1
                }
                runs.append(CellRun(x: start, y: y, style: style, texts: texts))
            }
        }
        return runs
    }

    private func index(_ x: Int, _ y: Int) -> Int { y * width + x }

    /// Stores one character at (x, y), keeping the wide-character invariant.
    private mutating func place(_ text: String, wide: Bool, x: Int, y: Int, style: CellStyle) {
        guard wide else {
            breakWideCharacter(at: x, y: y)
            cells[index(x, y)] = Cell(text: text, style: style)
            return
        }
        guard x + 1 < width else {
            breakWideCharacter(at: x, y: y)
            cells[index(x, y)] = Cell(text: " ", style: style)
            return
        }
        breakWideCharacter(at: x, y: y)
        breakWideCharacter(at: x + 1, y: y)
        cells[index(x, y)] = Cell(text: text, style: style)
        cells[index(x + 1, y)] = Cell(text: "", style: style)
    }

    /// Turns the other half of a wide character at (x, y), if any, into a space.
    private mutating func breakWideCharacter(at x: Int, y: Int) {
        if cells[index(x, y)].isContinuation {
            if x > 0 {
                cells[index(x - 1, y)].text = " "
            }
            cells[index(x, y)].text = " "
        } else if x + 1 < width, cells[index(x + 1, y)].isContinuation {
            cells[index(x + 1, y)].text = " "
        }
    }
}
