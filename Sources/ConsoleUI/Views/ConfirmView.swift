/// A yes/no box restating the change.
enum ConfirmView {
    static func render(_ confirmation: Confirmation, into buffer: inout ScreenBuffer, area: Rect) {
        let width = min(area.width - 4, max(44, (confirmation.lines.map(DisplayWidth.of).max() ?? 0) + 6))
        let rect = Box.centered(width: width, height: confirmation.lines.count + 5, in: area)
        Box.render(rect, title: SafeText.escaped(confirmation.title), into: &buffer)
        let content = Box.content(of: rect)
        for (offset, line) in confirmation.lines.enumerated() {
            buffer.write(SafeText.escaped(line), x: content.x, y: content.y + offset, maxWidth: content.width)
        }
        let y = content.maxY - 1
        let used = buffer.write("y", x: content.x, y: y, style: Palette.key)
        buffer.write(" apply   ", x: content.x + used, y: y)
        buffer.write("n/Esc", x: content.x + used + 9, y: y, style: Palette.key)
        buffer.write(" go back", x: content.x + used + 14, y: y)
    }
}
