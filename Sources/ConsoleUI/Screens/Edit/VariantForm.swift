import ExperimentCore
import ExperimentEditing

/// Adds a variant (name and optional JSON payload, at 0 %) or sets a variant's payload (`v`, `P` on the detail screen).
package struct VariantForm: Equatable, Sendable {
    /// What the form saves.
    package enum Purpose: Equatable, Sendable {
        /// `add-variant`: a new variant at 0 %, ramped up afterwards.
        case add
        /// `set-payload`: the payload of an existing variant; an empty field clears it.
        case payload
    }

    /// The form's fields, in Tab order: the variant (typed name or chosen one), then its payload.
    package enum Field: Equatable, Sendable { case variant, payload }

    package var purpose: Purpose
    package var experimentKey: String
    /// The revision the form was opened on; saving is refused if the experiment moved past it.
    package var revision: Int
    /// The variant names, in the experiment's order (the choices when setting a payload).
    package var variants: [String]
    /// Each variant's payload as compact JSON ("" for none), in variant order, to start the field from.
    package var payloads: [String]
    /// The new variant's name (adding).
    package var name = TextField()
    /// The chosen variant (setting a payload).
    package var variantIndex = 0
    /// The payload as JSON text; empty means none.
    package var payload = TextField()
    package var focus = Field.variant
    /// Why Enter was refused, shown in the form until the next key.
    package var problem: String?

    /// A form on `experiment`; setting a payload starts on the first variant with its payload.
    package init(_ purpose: Purpose, _ experiment: Experiment) {
        self.purpose = purpose
        experimentKey = experiment.key
        revision = experiment.revision
        variants = experiment.variants.map(\.name)
        payloads = experiment.variants.map { $0.payload?.compactText ?? "" }
        if purpose == .payload { choose(0) }
    }

    /// The variant the payload is for: the typed name, or the chosen variant.
    package var variantName: String {
        switch purpose {
        case .add: name.text
        case .payload: variants.indices.contains(variantIndex) ? variants[variantIndex] : ""
        }
    }

    /// Chooses variant `index` and puts its current payload in the field, selected.
    mutating func choose(_ index: Int) {
        guard variants.indices.contains(index) else { return }
        variantIndex = index
        payload = TextField(payloads[index])
        payload.selectAll()
    }
}

extension VariantForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        problem = nil
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("nothing changed"))
        case .submit?:
            return submit(context)
        case .nextField?, .previousField?:
            focus = focus == .variant ? .payload : .variant
            if focus == .payload { payload.selectAll() } else { name.selectAll() }
        case .cycleNext? where focus == .variant && purpose == .payload, .cyclePrevious? where focus == .variant && purpose == .payload:
            guard !variants.isEmpty else { break }
            choose((variantIndex + (intent == .cycleNext ? 1 : variants.count - 1)) % variants.count)
        default:
            switch focus {
            case .payload: payload.type(key)
            case .variant where purpose == .add: name.type(key)
            case .variant: break
            }
        }
        return .none
    }

    /// Enter: the change, with the payload parsed here so a typo is shown before anything is saved.
    private mutating func submit(_ context: ScreenContext) -> ScreenReply {
        if let refusal = context.writeRefusal(purpose == .add ? "add a variant" : "set a payload") { return .show(refusal) }
        let name = variantName.trimmingSpaces
        guard !name.isEmpty else {
            problem = "type the new variant's name, e.g. blue (a-z, 0-9, _ . -)"
            focus = .variant
            return .none
        }
        var value: JSONValue?
        let text = payload.text.trimmingSpaces
        if !text.isEmpty {
            switch JSONValue.parse(text) {
            case .success(let parsed): value = parsed
            case .failure(let error):
                problem = error.message(for: text)
                focus = .payload
                payload.selectAll()
                return .none
            }
        }
        let change: Change = purpose == .add
            ? .addVariant(experiment: experimentKey, name: name, payload: value)
            : .setPayload(experiment: experimentKey, variant: name, payload: value)
        return .start(.apply(change, expectedRevision: revision), status: .clear)
    }
}
