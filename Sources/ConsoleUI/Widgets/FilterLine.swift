/// The line above a filtered table: `/text▏` while typing, `filter: text` once kept.
enum FilterLine {
    /// Draws the filter `field` across `width` columns at (x, y): underlined with its cursor while typing, else plain.
    static func render(_ field: TextField, typing: Bool, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let used = buffer.write(typing ? "/" : "filter: ", x: x, y: y, style: Palette.key)
        if typing {
            TextField.draw(field, focused: true, x: x + used, y: y, width: width - used, focusedStyle: .underline, into: &buffer)
        } else {
            buffer.write(SafeText.escaped(field.text), x: x + used, y: y, maxWidth: width - used)
        }
    }
}
