/// One screen column: a grapheme cluster and its style.
///
/// A wide character occupies two cells: the left holds the character, the right holds
/// the empty string (a continuation) with the same style.
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster; "" marks the right half of a wide character.
    public var text: String
    public var style: CellStyle

    public init(text: String, style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// A space in the plain style.
    public static let blank = Cell(text: " ")

    /// Whether this cell is the right half of a wide character.
    public var isContinuation: Bool { text.isEmpty }
}
