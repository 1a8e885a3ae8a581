/// The `?` overlay: every binding of the current context, then the global ones, from the table.
enum HelpOverlay {
    static func render(_ state: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let context = state.contentContext
        var lines: [(String, String, Bool)] = [(context.title, "", true)]
        lines += KeyBindings.all.filter { $0.context == context }.map { ($0.label, $0.help, false) }
        if !state.jobs.isEmpty, state.overlay == nil {
            lines += [("", "", false), (BindingContext.job.title, "", true)]
            lines += KeyBindings.all.filter { $0.context == .job }.map { ($0.label, $0.help, false) }
        }
        lines += [("", "", false), (BindingContext.global.title, "", true)]
        lines += KeyBindings.globals(in: context).map { ($0.label, $0.help, false) }
        let rect = Box.centered(width: 64, height: lines.count + 5, in: area)
        Box.render(rect, title: "Help — keys", into: &buffer)
        let content = Box.content(of: rect)
        for (offset, line) in lines.prefix(max(0, content.height - 2)).enumerated() {
            let y = content.y + offset
            if line.2 {
                buffer.write(line.0, x: content.x, y: y, style: Palette.header)
            } else {
                buffer.write(line.0, x: content.x, y: y, maxWidth: 10, style: Palette.key)
                buffer.write(line.1, x: content.x + 11, y: y, maxWidth: content.width - 11)
            }
        }
        buffer.write("Esc, q or ? closes", x: content.x, y: content.maxY - 1, maxWidth: content.width, style: Palette.dim)
    }
}
