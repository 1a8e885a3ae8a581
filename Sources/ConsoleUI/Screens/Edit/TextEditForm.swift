import ExperimentCore
import ExperimentEditing

/// Edits one text of an experiment: its description (`E` on the detail screen) or a whitelist entry's note (`N`).
package struct TextEditForm: Equatable, Sendable {
    /// Which text the form edits.
    package enum Purpose: Equatable, Sendable {
        case description
        /// The note of `subject`'s entry, in `variant` (saved through the core's `whitelistNote`, which keeps the variant).
        case note(subject: String, variant: String)
    }

    package var purpose: Purpose
    package var experimentKey: String
    /// The revision the form was opened on; saving is refused if the experiment moved past it.
    package var revision: Int
    /// The text when the form opened.
    package var original: String
    /// The text being edited, all selected at first (typing replaces it; ←/→ edit it).
    package var field: TextField

    /// The form for `purpose` on `experiment`, holding the current text.
    package init(_ purpose: Purpose, _ experiment: Experiment, text: String) {
        self.purpose = purpose
        experimentKey = experiment.key
        revision = experiment.revision
        original = text
        field = TextField(text)
        field.selectAll()
    }

    /// The description form of `experiment`.
    static func description(of experiment: Experiment) -> TextEditForm {
        TextEditForm(.description, experiment, text: experiment.description)
    }

    /// The note form of `entry` in `experiment`.
    static func note(of entry: WhitelistEntry, in experiment: Experiment) -> TextEditForm {
        TextEditForm(.note(subject: entry.subject, variant: entry.variant), experiment, text: entry.note)
    }
}

extension TextEditForm {
    /// Handles a key while the form is open: the field takes every key but Enter and Esc.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("nothing changed"))
        case .submit?:
            return submit(context)
        default:
            field.type(key)
            return .none
        }
    }

    private func submit(_ context: ScreenContext) -> ScreenReply {
        let change: Change
        switch purpose {
        case .description:
            if let refusal = context.writeRefusal("edit the description") { return .show(refusal) }
            change = .setDescription(experiment: experimentKey, description: field.text)
        case .note(let subject, _):
            if let refusal = context.writeRefusal("edit a whitelist note") { return .show(refusal) }
            change = .whitelistNote(experiment: experimentKey, subject: subject, note: field.text)
        }
        guard field.text != original else { return .close(saying: .info("unchanged; nothing saved")) }
        return .start(.apply(change, expectedRevision: revision), status: .clear)
    }
}
