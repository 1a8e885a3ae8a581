import ExperimentCore

/// The ramp editor: one weight field per variant, with a live preview of what moves.
package struct RampEditor: Equatable, Sendable {
    package var experimentKey: String
    /// The revision the editor was opened on; the ramp is refused if the experiment moved past it.
    package var revision: Int
    /// The variant names, in the experiment's order.
    package var variants: [String]
    /// The weights when the editor opened, in variant order.
    package var before: [Weight]
    /// The typed weights in percent, in variant order.
    package var fields: [TextField]
    /// The index of the focused field; its text is selected when focus enters it, so the first digit replaces it.
    package var focus = 0
    /// Why the last key or Enter was refused, shown in the editor until the next key.
    package var problem: String?
    /// What another writer changed since the editor opened (its numbers are then recomputed).
    package var changed: StaleNote?

    /// An editor for `experiment`, the first field focused.
    package init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
        variants = experiment.variants.map(\.name)
        before = experiment.variants.map(\.weight)
        fields = experiment.variants.map { TextField($0.weight.description) }
        focus(0)
    }

    /// Focuses field `index` with its text selected: what is typed next replaces what the user sees.
    mutating func focus(_ index: Int) {
        guard fields.indices.contains(index) else { return }
        focus = index
        fields[index].selectAll()
    }

    /// The editor on `experiment`'s fresh weights after another writer changed it: the fields typed
    /// into are kept (by variant name), the others follow the new weights; `note` says what changed.
    func rebased(on experiment: Experiment, _ note: StaleNote) -> RampEditor {
        var fresh = RampEditor(experiment)
        for (index, name) in fresh.variants.enumerated() {
            guard let old = variants.firstIndex(of: name), fields[old].text != before[old].description else { continue }
            fresh.fields[index] = fields[old]
        }
        fresh.focus = min(focus, max(0, fresh.fields.count - 1))
        fresh.problem = problem
        fresh.changed = note
        return fresh
    }

    /// Focuses the field `offset` away, wrapping around; the next digit replaces it.
    mutating func moveFocus(by offset: Int) {
        guard !fields.isEmpty else { return }
        focus(((focus + offset) % fields.count + fields.count) % fields.count)
        problem = nil
    }

    /// Steps the focused weight by `buckets` (100 = 1 %), clamped to 0…100 %.
    ///
    /// A field that does not hold a weight steps from the weight the editor opened with.
    mutating func step(by buckets: Int) {
        guard fields.indices.contains(focus) else { return }
        let current = (try? Weight.parse(percent: fields[focus].text).get()) ?? before[focus]
        let next = Weight(buckets: min(max(current.buckets + buckets, 0), Weight.bucketCount))
        let wasSelected = fields[focus].isAllSelected
        fields[focus].text = next.description
        // A field still selected stays so: the first digit typed replaces the stepped value too.
        if wasSelected { fields[focus].selectAll() }
        problem = nil
    }

    /// Types into the focused field: digits and `.` at the cursor (replacing a selected value), and the editing keys.
    mutating func type(_ key: Key) {
        guard fields.indices.contains(focus) else { return }
        switch key {
        case .character(let character) where character.isASCII && (character.isNumber || character == "."):
            fields[focus].type(key)
        case .character:
            problem = "a weight is a percentage: type digits and `.` (e.g. 12.5), or use +/-"
            return
        default:
            guard fields[focus].type(key) else { return }
        }
        problem = nil
    }
}
