/// Consecutive cells of one row with one style, as the terminal backend paints them.
public struct CellRun: Hashable, Sendable {
    /// The column of the first cell.
    public var x: Int
    /// The row.
    public var y: Int
    public var style: CellStyle
    /// One entry per column: a grapheme cluster, or "" for the right half of a wide character.
    public var texts: [String]

    public init(x: Int, y: Int, style: CellStyle, texts: [String]) {
        self.x = x
        self.y = y
        self.style = style
        self.texts = texts
    }

    /// The run's text as it reads on screen.
    public var text: String { texts.joined() }
    /// The number of columns the run covers.
    public var width: Int { texts.count }
}
