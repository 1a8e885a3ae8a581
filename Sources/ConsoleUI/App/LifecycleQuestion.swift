import ExperimentCore
import ExperimentEditing

/// The question `s` (start, resume) and `p` (pause) ask before changing an experiment's status.
enum LifecycleQuestion {
    /// The confirmation for moving `experiment` to `target`, or at once why not (the core's
    /// `refusalText(for:)`, the rule `Intent.availability` uses: "already running", "a draft: …").
    ///
    /// Dispatch has checked availability already; this check is for the question asked again on a
    /// fresh store after a stale confirmation.
    static func ask(_ target: ExperimentStatus, _ experiment: Experiment) -> ScreenReply {
        if let refusal = experiment.refusalText(for: target == .paused ? .pause : .start) { return .show(.error(refusal)) }
        if target == .paused {
            return .present(.confirm(Confirmation(
                title: "Pause \(experiment.key)?",
                lines: ["Pause is the kill switch: every subject gets `\(experiment.control)` at once,",
                        "whitelisted ones too, until you start it again (s)."],
                change: .pause(experiment: experiment.key), expectedRevision: experiment.revision)))
        }
        let verb = experiment.status == .paused ? "Resume" : "Start"
        return .present(.confirm(Confirmation(
            title: "\(verb) \(experiment.key)?",
            lines: ["Subjects will be bucketed: \(experiment.weightSummary)",
                    "(unallocated \(experiment.unallocated) % get `\(experiment.control)`)."],
            change: .start(experiment: experiment.key), expectedRevision: experiment.revision)))
    }
}
