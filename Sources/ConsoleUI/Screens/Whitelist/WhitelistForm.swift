import ExperimentCore
import ExperimentEditing

/// The whitelist add form: subject (focused first), variant (←/→ or type its name), note.
package struct WhitelistForm: Equatable, Sendable {
    /// The form's fields, in Tab order.
    package enum Field: CaseIterable, Equatable, Sendable { case subject, variant, note }

    package var experimentKey: String
    /// The experiment revision the form was opened on; saving is refused if it moved.
    package var revision: Int
    /// Whether the subject is a user id or a device id.
    package var subjectType: SubjectType
    /// The variant names, in the experiment's order.
    package var variants: [String]
    package var subject = TextField()
    package var variantIndex = 0
    /// What was typed on the variant field: the first variant starting with it is chosen.
    package var variantQuery = ""
    package var note = TextField()
    package var focus = Field.subject

    package init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
        subjectType = experiment.type
        variants = experiment.variants.map(\.name)
    }

    /// The chosen variant.
    package var variant: String? { variants.indices.contains(variantIndex) ? variants[variantIndex] : nil }

    /// Follows `experiment` as another writer changed it: its revision and variants (the chosen one kept by name).
    mutating func follow(_ experiment: Experiment) {
        let chosen = variant
        revision = experiment.revision
        variants = experiment.variants.map(\.name)
        variantIndex = chosen.flatMap { variants.firstIndex(of: $0) } ?? 0
    }

    /// "Replace `u1`?" restating the entry listed now and the one typed, when the typed subject is
    /// listed in `experiment` already (nil otherwise); `y` replaces it, `n` returns to this form.
    func replaceQuestion(_ experiment: Experiment, refusal: String? = nil) -> Confirmation? {
        guard let variant, let existing = experiment.whitelistEntry(for: subject.text) else { return nil }
        let quoted = { (note: String) in note.isEmpty ? "no note" : "note \"\(note.count > 40 ? note.prefix(39) + "…" : note)\"" }
        var question = Confirmation(
            title: "Replace `\(existing.subject)` in the whitelist of `\(experiment.key)`?",
            lines: ["It is listed already (replacing loses this entry):",
                    "  now  `\(existing.variant)`, \(quoted(existing.note)), added by \(existing.addedBy) at \(TimeLabel.utc(existing.addedAt))",
                    "  new  `\(variant)`, \(quoted(note.text))"],
            change: .whitelistAdd(experiment: experiment.key, subject: subject.text, variant: variant, note: note.text, replace: true),
            expectedRevision: experiment.revision, returnTo: .whitelistAdd(self))
        question.refusal = refusal
        return question
    }
}

extension WhitelistForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("nothing changed"))
        case .submit?:
            return submit(context)
        case .nextField?:
            focus(shiftedFocus(by: 1))
        case .previousField?:
            focus(shiftedFocus(by: -1))
        case .cycleNext? where focus == .variant, .cyclePrevious? where focus == .variant:
            guard !variants.isEmpty else { break }
            variantIndex = (variantIndex + (intent == .cycleNext ? 1 : variants.count - 1)) % variants.count
            variantQuery = ""
        case nil, .cycleNext?, .cyclePrevious?, .editText?:
            switch focus {
            case .subject: subject.type(key)
            case .note: note.type(key)
            case .variant:
                if let problem = typeVariant(key) { return .show(.error(problem)) }
            }
        default:
            break
        }
        return .none
    }

    /// Focuses `field`; a text field gets its text selected, so typing replaces it.
    private mutating func focus(_ field: Field) {
        focus = field
        switch field {
        case .subject: subject.selectAll()
        case .note: note.selectAll()
        case .variant: break
        }
    }

    private func shiftedFocus(by offset: Int) -> Field {
        let fields = Field.allCases
        let index = fields.firstIndex(of: focus) ?? 0
        return fields[(index + offset + fields.count) % fields.count]
    }

    /// Picks the first variant whose name starts with what was typed; returns a problem to show, if any.
    private mutating func typeVariant(_ key: Key) -> String? {
        switch key {
        case .character(let character) where !character.isNewline:
            let typed = character.lowercased()
            if let index = variants.firstIndex(where: { $0.hasPrefix(variantQuery + typed) }) {
                variantQuery += typed
                variantIndex = index
            } else if let index = variants.firstIndex(where: { $0.hasPrefix(typed) }) {
                variantQuery = typed
                variantIndex = index
            } else {
                return "no variant starts with `\(variantQuery + typed)`; the variants are \(variants.map { "`\($0)`" }.joined(separator: ", "))"
            }
        case .backspace:
            guard !variantQuery.isEmpty else { return nil }
            variantQuery.removeLast()
            if !variantQuery.isEmpty, let index = variants.firstIndex(where: { $0.hasPrefix(variantQuery) }) { variantIndex = index }
        case .control("u"):
            variantQuery = ""
        default:
            break
        }
        return nil
    }

    /// Saves through the core (`.whitelistAdd` against the revision shown); the core checks the rest.
    private func submit(_ context: ScreenContext) -> ScreenReply {
        if let refusal = context.writeRefusal("add to the whitelist") { return .show(refusal) }
        guard !subject.text.isEmpty else { return .show(.error("type the \(subjectType.rawValue) id to whitelist first")) }
        guard let variant else { return .none }
        if let experiment = context.snapshot.experiments[experimentKey], let question = replaceQuestion(experiment) {
            return .replace(with: .confirm(question), status: .clear)
        }
        return .start(.apply(.whitelistAdd(experiment: experimentKey, subject: subject.text, variant: variant, note: note.text),
                             expectedRevision: revision),
                      status: .clear, selecting: SubjectID(subject.text))
    }
}

extension WhitelistForm {
    /// Draws the form in a box centred in `area`.
    static func render(_ form: WhitelistForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 80), height: 14, in: area)
        Box.render(rect, title: "Whitelist a subject in \(SafeText.escaped(form.experimentKey))", into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        buffer.write("Force a subject into a variant, whatever its bucket.", x: x, y: content.y, maxWidth: width, style: Palette.dim)
        let label = form.subjectType == .user ? "user id  " : "device id"
        TextField.render(form.subject, label: label, focused: form.focus == .subject, x: x, y: content.y + 2, width: width, into: &buffer)
        renderVariants(form, x: x, y: content.y + 3, width: width, into: &buffer)
        TextField.render(form.note, label: "note     ", focused: form.focus == .note, x: x, y: content.y + 4, width: width, into: &buffer)
        var y = content.y + 6
        if let experiment = app.snapshot.experiments[form.experimentKey], !form.subject.text.isEmpty,
           let existing = experiment.whitelistEntry(for: form.subject.text) {
            let text = "`\(form.subject.text)` is already whitelisted into `\(existing.variant)`; Enter asks to replace it"
            y += buffer.write(SafeText.escaped(text), x: x, y: y, maxWidth: width, style: Palette.status(.paused)) > 0 ? 1 : 0
        }
        FormNotice.render(app.message, x: x, y: y, width: width, maxY: content.maxY - 1, into: &buffer)
        buffer.write("Tab next field · ←/→ or type to choose the variant · Enter save · Esc cancel",
                     x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }

    /// `variant   █ control  ▓ treatment`, the chosen one highlighted.
    private static func renderVariants(_ form: WhitelistForm, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let focused = form.focus == .variant
        let column = VariantChoices.render(form.variants, chosen: form.variantIndex, label: "variant  ", focused: focused,
                                           x: x, y: y, width: width, into: &buffer)
        if focused, !form.variantQuery.isEmpty, x + width - column > 12 {
            buffer.write("typed: \(SafeText.escaped(form.variantQuery))", x: column + 1, y: y, maxWidth: x + width - column - 1, style: Palette.dim)
        }
    }
}
