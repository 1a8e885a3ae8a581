/// One screen column: a grapheme cluster and its style.
///
/// A wide character occupies two cells: the left holds the character, the right holds
/// the empty string (a continuation) with the same style.
package struct Cell: Hashable, Sendable {
    /// One grapheme cluster; "" marks the right half of a wide character.
    package var text: String
    package var style: CellStyle

    package init(text: String, style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// A space in the plain style.
    package static let blank = Cell(text: " ")

    /// Whether this cell is the right half of a wide character.
    package var isContinuation: Bool { text.isEmpty }
}
