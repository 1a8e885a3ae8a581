import ExperimentCore
import ExperimentEditing

/// Whether a binding's action applies now; if not, why (shown at once when its key is pressed).
package enum Availability: Equatable, Sendable {
    case available
    case unavailable(String)

    /// Whether the action applies.
    package var isAvailable: Bool { self == .available }

    /// The reason it does not apply, or nil.
    package var reason: String? {
        if case .unavailable(let reason) = self { reason } else { nil }
    }
}

/// What availability depends on: the console's mode and the experiment the action keys act on.
package struct AvailabilityFacts: Equatable, Sendable {
    package let readOnly: Bool
    /// The open experiment, else the one selected in the list (`AppState.focusedExperiment`).
    package let experiment: Experiment?

    package init(readOnly: Bool, experiment: Experiment?) {
        self.readOnly = readOnly
        self.experiment = experiment
    }

    init(_ state: AppState) {
        self.init(readOnly: state.readOnly, experiment: state.focusedExperiment)
    }

    /// The refusal of any write in a read-only console.
    static func readOnlyRefusal(_ what: String) -> String {
        "read-only console (opened with --read-only): cannot \(what); restart without --read-only to make changes"
    }
}

extension Intent {
    /// Whether this action applies given `facts`: one rule per action, used by dispatch (an
    /// unavailable key says why instead of opening a form), the key bar (it hides the key) and
    /// the `?` overlay (it dims the key and gives the reason). What an experiment's status forbids
    /// is the core's `Experiment.refusalText(for:)`, the rule the store applies; actions not listed
    /// here always apply.
    package func availability(_ facts: AvailabilityFacts) -> Availability {
        switch self {
        case .newExperiment:
            return facts.writing("create an experiment")
        case .open, .whitelist, .results:
            return facts.experiment == nil ? .unavailable("no experiment selected") : .available
        case .ramp: return facts.changing("ramp", .ramp(weights: [:]))
        case .resolve: return facts.changing("resolve", .resolve(winner: ""))
        case .start: return facts.changing("start", .start)
        case .pause: return facts.changing("pause", .pause)
        case .whitelistAdd: return facts.changing("add to the whitelist", .whitelistAdd(subject: "", variant: "", note: ""))
        case .whitelistRemove: return facts.changing("remove from the whitelist", .whitelistRemove(subject: ""))
        case .whitelistEditNote: return facts.changing("edit a whitelist note", .whitelistNote(subject: "", note: ""))
        case .whitelistImport: return facts.changing("import a whitelist", .whitelistImport(rows: []))
        case .addVariant: return facts.changing("add a variant", .addVariant(name: "", payload: nil))
        case .setPayload: return facts.changing("set a payload", .setPayload(variant: "", payload: nil))
        case .editDescription: return facts.changing("edit the description", .setDescription(""))
        case .setMetrics: return facts.changing("set the metrics") { $0.refusal(for: .setMetrics(.none))?.message }
        case .rampPlan:
            return facts.changing("change a ramp plan") { experiment in
                PlanForm.actions(for: experiment).isEmpty ? experiment.refusalText(for: .setPlan(RolloutPlan(steps: []))) : nil
            }
        case .deleteDraft:
            return facts.changing("delete an experiment") { $0.deleteRefusal?.message }
        default:
            return .available
        }
    }
}

extension AvailabilityFacts {
    /// Available unless the console is read-only.
    func writing(_ what: String) -> Availability {
        readOnly ? .unavailable(Self.readOnlyRefusal(what)) : .available
    }

    /// Available when writes are allowed, an experiment is focused and its status allows `change`
    /// (whose arguments do not matter: the core's status rule looks at its kind only).
    func changing(_ what: String, _ change: ExperimentChange) -> Availability {
        changing(what) { $0.refusalText(for: change) }
    }

    /// Available when writes are allowed, an experiment is focused and `refusal` has nothing against it.
    func changing(_ what: String, refusal: (Experiment) -> String?) -> Availability {
        if readOnly { return .unavailable(Self.readOnlyRefusal(what)) }
        guard let experiment else { return .unavailable("no experiment selected") }
        return refusal(experiment).map(Availability.unavailable) ?? .available
    }
}

extension KeyBinding {
    /// Whether this binding's action applies given `facts` (see `Intent.availability`).
    package func availability(_ facts: AvailabilityFacts) -> Availability { intent.availability(facts) }
}
