import ExperimentCore

extension MetricsForm {
    /// Draws the form in a box centred in `area`, with the problem or the save error that kept it open.
    static func render(_ form: MetricsForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 80), height: 14, in: area)
        Box.render(rect, title: "Metrics of \(SafeText.escaped(form.experimentKey))", into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        buffer.write("Results judge the variants by the goal; a guardrail must not get worse.",
                     x: x, y: content.y, maxWidth: width, style: Palette.dim)
        TextField.render(form.goal, label: "goal      ", focused: form.focus == .goal, x: x, y: content.y + 2, width: width, into: &buffer)
        let focused = form.focus == .direction
        let used = buffer.write("direction  ", x: x, y: content.y + 3, style: focused ? Palette.key : .plain)
        let choice = "◀ \(form.direction.rawValue) ▶"
        let shown = buffer.write(choice, x: x + used, y: content.y + 3, maxWidth: width - used, style: focused ? Palette.selected : .underline)
        buffer.write(form.direction == .increase ? "higher is better · ←/→ switch" : "lower is better · ←/→ switch",
                     x: x + used + shown + 2, y: content.y + 3, maxWidth: max(0, width - used - shown - 2), style: Palette.dim)
        TextField.render(form.guardrails, label: "guardrails", focused: form.focus == .guardrails, x: x, y: content.y + 4, width: width, into: &buffer)
        buffer.write("comma-separated, e.g. refund:decrease, errors:decrease",
                     x: x + 11, y: content.y + 5, maxWidth: width - 11, style: Palette.dim)
        if let suggestions = form.suggestions(app.results) {
            buffer.write(SafeText.escaped(suggestions), x: x, y: content.y + 6, maxWidth: width, style: Palette.dim)
        }
        let y = content.y + 7
        if let problem = form.problem {
            for (offset, line) in WordWrap.lines("✗ " + SafeText.escaped(problem), width: width, maxLines: 3).enumerated() {
                buffer.write(line, x: x, y: y + offset, maxWidth: width, style: Palette.error)
            }
        } else {
            FormNotice.render(app.message, x: x, y: y, width: width, maxY: content.maxY - 1, into: &buffer)
        }
        buffer.write("Tab next field · Enter save (empty fields clear) · Esc cancel", x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }
}
