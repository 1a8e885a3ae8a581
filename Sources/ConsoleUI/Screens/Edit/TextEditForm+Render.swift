import ExperimentCore

extension TextEditForm {
    /// Draws the form in a box centred in `area`, with the save error that kept it open.
    static func render(_ form: TextEditForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 80), height: 10, in: area)
        let key = SafeText.escaped(form.experimentKey)
        let title: String, intro: String, label: String
        switch form.purpose {
        case .description:
            (title, intro, label) = ("Description of \(key)", "What the experiment tests; shown in the list and the detail.", "description")
        case .note(let subject, let variant):
            (title, intro, label) = ("Whitelist note in \(key)", "Why `\(SafeText.escaped(subject))` is forced into `\(SafeText.escaped(variant))`.", "note")
        }
        Box.render(rect, title: title, into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        buffer.write(intro, x: x, y: content.y, maxWidth: width, style: Palette.dim)
        TextField.render(form.field, label: label, focused: true, x: x, y: content.y + 2, width: width, into: &buffer)
        FormNotice.render(app.message, x: x, y: content.y + 4, width: width, maxY: content.maxY - 1, into: &buffer)
        buffer.write("typing replaces the selected text · ←/→ to edit it · Enter save · Esc cancel",
                     x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }
}
