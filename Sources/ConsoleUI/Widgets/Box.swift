/// A bordered panel with a title, cleared inside; overlays and forms are drawn in one.
enum Box {
    /// Draws the frame of `rect` with `title` and clears its inside.
    static func render(_ rect: Rect, title: String, into buffer: inout ScreenBuffer, style: CellStyle = .plain) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        buffer.fill(rect)
        let inner = String(repeating: "─", count: rect.width - 2)
        buffer.write("┌" + inner + "┐", x: rect.x, y: rect.y, style: style)
        buffer.write("└" + inner + "┘", x: rect.x, y: rect.maxY - 1, style: style)
        for row in rect.y + 1..<rect.maxY - 1 {
            buffer.write("│", x: rect.x, y: row, style: style)
            buffer.write("│", x: rect.maxX - 1, y: row, style: style)
        }
        if !title.isEmpty { buffer.write(" \(title) ", x: rect.x + 2, y: rect.y, maxWidth: rect.width - 4, style: style.bolded) }
    }

    /// A rectangle of `width` × `height` centred in `area` (clamped to it).
    static func centered(width: Int, height: Int, in area: Rect) -> Rect {
        let width = min(width, area.width), height = min(height, area.height)
        return Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }

    /// The inside of a box drawn at `rect`, one column of padding on each side.
    static func content(of rect: Rect) -> Rect { rect.inset(top: 1, left: 2, bottom: 1, right: 2) }
}
