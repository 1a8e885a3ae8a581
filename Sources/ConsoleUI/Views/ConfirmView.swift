/// A yes/no box restating the change, with what changed meanwhile and the last refusal, wrapped whole.
enum ConfirmView {
    static func render(_ confirmation: Confirmation, into buffer: inout ScreenBuffer, area: Rect) {
        let hasNotes = confirmation.stale != nil || confirmation.refusal != nil
        let widest = (confirmation.lines.map(DisplayWidth.of).max() ?? 0) + 6
        let width = min(area.width - 4, max(hasNotes ? 64 : 44, widest))
        let textWidth = max(1, width - 4)
        var notes: [(String, CellStyle)] = []
        if let stale = confirmation.stale {
            let text = stale.text + "; this question is out of date: y asks again with the new numbers"
            notes += WordWrap.lines(SafeText.escaped(text), width: textWidth).map { ($0, Palette.warning) }
        }
        if let refusal = confirmation.refusal {
            notes += WordWrap.lines("✗ " + SafeText.escaped(refusal), width: textWidth).map { ($0, Palette.error) }
        }
        // The question's own lines wrap too: on a narrow terminal nothing of it is cut off.
        let body = confirmation.lines.flatMap { WordWrap.lines(SafeText.escaped($0), width: textWidth) }
        let noteRows = notes.isEmpty ? 0 : notes.count + 1
        let rect = Box.centered(width: width, height: min(area.height, body.count + noteRows + 5), in: area)
        Box.render(rect, title: SafeText.escaped(confirmation.title), into: &buffer)
        let content = Box.content(of: rect)
        let y = content.maxY - 1
        var row = content.y
        for (line, style) in notes where row < y - 1 {
            buffer.write(line, x: content.x, y: row, maxWidth: content.width, style: style)
            row += 1
        }
        if !notes.isEmpty { row += 1 }
        for line in body where row < y - 1 {
            buffer.write(line, x: content.x, y: row, maxWidth: content.width)
            row += 1
        }
        let used = buffer.write("y", x: content.x, y: y, style: Palette.key)
        let yes = confirmation.stale == nil ? " apply   " : " ask again   "
        buffer.write(yes, x: content.x + used, y: y)
        let column = content.x + used + DisplayWidth.of(yes)
        buffer.write("n/Esc", x: column, y: y, style: Palette.key)
        buffer.write(" go back", x: column + 5, y: y)
    }
}
