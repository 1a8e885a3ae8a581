import ExperimentCore
import ExperimentEditing

extension RolloutDecision {
    /// The change that carries the decision out: an advance (or `done`, into the last step) or a
    /// rollback, with the reason the history and the commit keep; nil for a hold or none (nothing is written).
    package var change: Change? {
        switch action {
        case .advance, .done: .edit(experiment: experiment, .advancePlan(reason: reason))
        case .rollback: .edit(experiment: experiment, .rollBackPlan(reason: reason))
        case .hold, .none: nil
        }
    }
}
