/// A form's variant picker on one line: `variant  ‹█ control›  ▓ treatment`, the chosen one marked.
enum VariantChoices {
    /// Draws `label` then every name in `names` with its glyph, `chosen` marked (reversed while the row is focused); returns the column after the last.
    @discardableResult
    static func render(_ names: [String], chosen: Int, label: String, focused: Bool, x: Int, y: Int, width: Int,
                       into buffer: inout ScreenBuffer) -> Int {
        var column = x + buffer.write(label, x: x, y: y, style: focused ? Palette.key : .plain)
        for (index, name) in names.enumerated() {
            let isChosen = index == chosen
            let style = isChosen ? (focused ? Palette.variantStyle(index).reversed.bolded : Palette.variantStyle(index).bolded.underlined)
                : Palette.variantStyle(index)
            let text = "\(Palette.variantGlyph(index)) \(SafeText.escaped(name))"
            let room = x + width - column
            guard room > 0 else { break }
            column += buffer.write(isChosen ? "‹\(text)›" : " \(text) ", x: column, y: y, maxWidth: room, style: style) + 1
        }
        return column
    }
}
