/// Consecutive cells of one row with one style, as the terminal backend paints them.
package struct CellRun: Hashable, Sendable {
    /// The column of the first cell.
    package var x: Int
    /// The row.
    package var y: Int
    package var style: CellStyle
    /// One entry per column: a grapheme cluster, or "" for the right half of a wide character.
    package var texts: [String]

    package init(x: Int, y: Int, style: CellStyle, texts: [String]) {
        self.x = x
        self.y = y
        self.style = style
        self.texts = texts
    }

    /// The run's text as it reads on screen.
    package var text: String { texts.joined() }
    /// The number of columns the run covers.
    package var width: Int { texts.count }
}
