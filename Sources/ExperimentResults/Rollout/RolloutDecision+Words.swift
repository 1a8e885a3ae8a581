import ExperimentCore
import ExperimentEditing

extension RolloutDecision {
    /// The decision in one line, as `advance` prints it; `movedShare` is what the ramp switched (nil when nothing was written).
    ///
    /// `advance checkout: step 2 of 3, control=75,green=25 (15 % of subjects switched variant); held 1d 1h (hold 1d), …`
    package func line(movedShare: Double?) -> String {
        let moved = movedShare.map { " (\(Experiment.percentText($0)) of subjects switched variant)" } ?? ""
        let weightsText = HistoryText.weightsText(weights)
        switch action {
        case .advance: return "advance \(experiment): step \(step) of \(steps), \(weightsText)\(moved); \(reason)"
        case .done: return "done \(experiment): step \(step) of \(steps), \(weightsText)\(moved), the last: the plan is done; \(reason)"
        case .hold: return "hold \(experiment) at step \(step) of \(steps): \(reason)"
        case .rollback: return "rollback \(experiment) to \(weightsText), the weights the plan started from\(moved): \(reason)"
        case .none: return "none \(experiment): \(reason)"
        }
    }
}
