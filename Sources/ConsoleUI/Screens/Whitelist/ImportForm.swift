import ExperimentCore

/// The whitelist import form: the path of a CSV file of `subject,variant[,note]` lines.
package struct ImportForm: Equatable, Sendable {
    package var experimentKey: String
    /// The experiment revision the form was opened on; importing is refused if it moved.
    package var revision: Int
    /// The CSV path, relative to the directory the console was started in, or absolute.
    package var path = TextField()

    package init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
    }
}

extension ImportForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("nothing changed"))
        case .submit?:
            if let refusal = context.writeRefusal("import a whitelist") { return .show(refusal) }
            guard !path.text.isEmpty else { return .show(.error("type the path of a CSV file of subject,variant[,note] lines")) }
            return .start(.importWhitelist(experiment: experimentKey, path: path.text, expectedRevision: revision), status: .clear)
        case nil, .cycleNext?, .cyclePrevious?, .editText?:
            path.type(key)
        default:
            break
        }
        return .none
    }

    /// Draws the form in a box centred in `area`, with the error that kept it open (e.g. `line 3: …`).
    static func render(_ form: ImportForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 80), height: 13, in: area)
        Box.render(rect, title: "Import a whitelist into \(SafeText.escaped(form.experimentKey))", into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        let lines = ["A CSV file of subject,variant[,note] lines; a header line is optional.",
                     "All or nothing: one bad line and nothing is imported. Listed subjects",
                     "replace their current entries."]
        for (offset, line) in lines.enumerated() {
            buffer.write(line, x: x, y: content.y + offset, maxWidth: width, style: Palette.dim)
        }
        TextField.render(form.path, label: "CSV file", focused: true, x: x, y: content.y + 4, width: width, into: &buffer)
        FormNotice.render(app.message, x: x, y: content.y + 6, width: width, maxY: content.maxY - 1, into: &buffer)
        buffer.write("Enter import · Esc cancel", x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }
}
