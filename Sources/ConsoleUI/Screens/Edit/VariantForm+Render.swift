import ExperimentCore

extension VariantForm {
    /// Draws the form in a box centred in `area`, with the problem or the save error that kept it open.
    static func render(_ form: VariantForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 80), height: 13, in: area)
        let key = SafeText.escaped(form.experimentKey)
        Box.render(rect, title: form.purpose == .add ? "Add a variant to \(key)" : "Set a payload in \(key)", into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        let intro = form.purpose == .add
            ? "The variant starts at 0 %: nobody gets it until you ramp it up (r)."
            : "What clients receive with the variant; an empty payload clears it."
        buffer.write(intro, x: x, y: content.y, maxWidth: width, style: Palette.dim)
        let variantFocused = form.focus == .variant
        if form.purpose == .add {
            TextField.render(form.name, label: "name   ", focused: variantFocused, x: x, y: content.y + 2, width: width, into: &buffer)
        } else {
            VariantChoices.render(form.variants, chosen: form.variantIndex, label: "variant ", focused: variantFocused,
                                  x: x, y: content.y + 2, width: width, into: &buffer)
        }
        TextField.render(form.payload, label: "payload", focused: !variantFocused, x: x, y: content.y + 3, width: width, into: &buffer)
        buffer.write("JSON, e.g. {\"color\":\"#0a84ff\"}" + (form.purpose == .add ? " · optional" : ""),
                     x: x + 8, y: content.y + 4, maxWidth: width - 8, style: Palette.dim)
        let y = content.y + 6
        if let problem = form.problem {
            for (offset, line) in WordWrap.lines("✗ " + SafeText.escaped(problem), width: width, maxLines: 3).enumerated() {
                buffer.write(line, x: x, y: y + offset, maxWidth: width, style: Palette.error)
            }
        } else {
            FormNotice.render(app.message, x: x, y: y, width: width, maxY: content.maxY - 1, into: &buffer)
        }
        let footer = form.purpose == .add ? "Tab next field · Enter add · Esc cancel" : "Tab next field · ←/→ choose the variant · Enter save · Esc cancel"
        buffer.write(footer, x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }
}
