/// The line above a filtered table: `/text▏` while typing, `filter: text` once kept.
enum FilterLine {
    /// Draws the filter `text` across `width` columns at (x, y).
    static func render(_ text: String, typing: Bool, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let used = buffer.write(typing ? "/" : "filter: ", x: x, y: y, style: Palette.key)
        buffer.write(SafeText.escaped(text) + (typing ? "▏" : ""), x: x + used, y: y, maxWidth: width - used, style: typing ? .underline : .plain)
    }
}
