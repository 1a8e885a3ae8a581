import ExperimentCore

extension PlanForm {
    /// Draws the form in a box centred in `area`: the plan now, the action, the fields and the save error.
    static func render(_ form: PlanForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 84), height: 14, in: area)
        Box.render(rect, title: "Ramp plan of \(SafeText.escaped(form.experimentKey))", into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        let current = app.snapshot.experiments[form.experimentKey]
        let now = current.flatMap { experiment in
            experiment.plan.map { "now: \($0.state.rawValue.replacingOccurrences(of: "_", with: " ")), step \($0.step) of \($0.steps.count)" }
        } ?? "now: no ramp plan"
        buffer.write(now, x: x, y: content.y, maxWidth: width, style: Palette.dim)
        let choices = form.actions.map { $0 == form.action ? "[\($0.rawValue)]" : " \($0.rawValue) " }.joined(separator: " ")
        let used = buffer.write("action ", x: x, y: content.y + 2, style: form.focus == 0 ? Palette.key : .plain)
        buffer.write(choices, x: x + used, y: content.y + 2, maxWidth: max(0, width - used), style: form.focus == 0 ? Palette.selected : .plain)
        var y = content.y + 3
        if form.action == .set {
            TextField.render(form.steps, label: "steps  ", focused: form.focus == 1, x: x, y: y, width: width, into: &buffer)
            TextField.render(form.hold, label: "hold   ", focused: form.focus == 2, x: x, y: y + 1, width: width, into: &buffer)
            TextField.render(form.minSubjects, label: "min subjects", focused: form.focus == 3, x: x, y: y + 2, width: width, into: &buffer)
            buffer.write("steps are full weights, space-separated: green=10 green=50 green=100",
                         x: x, y: y + 3, maxWidth: width, style: Palette.dim)
            y += 5
        } else {
            y += 1
        }
        FormNotice.render(app.message, x: x, y: y, width: width, maxY: content.maxY - 1, into: &buffer)
        buffer.write("←/→ action · Tab next field · Enter save · Esc cancel", x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }
}
