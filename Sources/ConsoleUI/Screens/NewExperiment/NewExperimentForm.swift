import ExperimentCore

/// The new experiment form: key, type, variants with weights, description; saved as a draft.
package struct NewExperimentForm: Equatable, Sendable {
    /// The form's fields, in Tab order.
    package enum Field: Int, CaseIterable, Sendable {
        case key, type, variants, description
    }

    package var key = TextField()
    package var type: SubjectType = .user
    /// Variants with weights, as `control=50,treatment=50`.
    package var variants = TextField()
    package var description = TextField()
    package var focus: Field = .key
    /// Why Enter was refused, shown in the form until the next key.
    package var problem: String?

    /// An empty form, the key field focused, type `user`.
    package init() {}

    /// Focuses the field `offset` away in Tab order, wrapping around; a text field's text is selected.
    mutating func moveFocus(by offset: Int) {
        let count = Field.allCases.count
        focus(Field(rawValue: ((focus.rawValue + offset) % count + count) % count) ?? .key)
    }

    /// Focuses `field`; a text field gets its text selected, so typing replaces it (as Tab does in a browser).
    mutating func focus(_ field: Field) {
        focus = field
        switch field {
        case .key: key.selectAll()
        case .variants: variants.selectAll()
        case .description: description.selectAll()
        case .type: break
        }
    }

    /// Cycles the type by `offset` while the type field is focused; on a text field ←/→ move the cursor.
    mutating func cycleType(by offset: Int, key: Key) {
        guard focus == .type else { return type(key) }
        let all = SubjectType.allCases
        let index = all.firstIndex(of: type) ?? 0
        type = all[((index + offset) % all.count + all.count) % all.count]
    }

    /// Types into the focused field; on the type field a letter picks the type it starts.
    mutating func type(_ key: Key) {
        switch focus {
        case .key: self.key.type(key)
        case .variants: variants.type(key)
        case .description: description.type(key)
        case .type:
            guard case .character(let character) = key else { return }
            if let match = SubjectType.allCases.first(where: { $0.rawValue.hasPrefix(character.lowercased()) }) { type = match }
        }
    }
}
