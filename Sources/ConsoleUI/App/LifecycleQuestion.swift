import ExperimentCore

/// The question `s` (start, resume) and `p` (pause) ask before changing an experiment's status.
enum LifecycleQuestion {
    /// The confirmation for moving `experiment` to `target`; the core's "already running/paused"
    /// at once (nothing to confirm, nothing written), or why the move is not allowed.
    static func ask(_ target: ExperimentStatus, _ experiment: Experiment) -> ScreenReply {
        if let already = experiment.alreadyDone(target == .paused ? .pause : .start) { return .show(.info(already)) }
        guard experiment.status.canMove(to: target) else {
            return .show(.error(ExperimentError.forbiddenTransition(experiment: experiment.key, from: experiment.status, to: target).message))
        }
        if target == .paused {
            return ScreenReply(present: .confirm(Confirmation(
                title: "Pause \(experiment.key)?",
                lines: ["Pause is the kill switch: every subject gets `\(experiment.control)` at once,",
                        "whitelisted ones too, until you start it again (s)."],
                change: .pause(experiment: experiment.key), expectedRevision: experiment.revision)))
        }
        let verb = experiment.status == .paused ? "Resume" : "Start"
        return ScreenReply(present: .confirm(Confirmation(
            title: "\(verb) \(experiment.key)?",
            lines: ["Subjects will be bucketed: \(experiment.weightSummary)",
                    "(unallocated \(experiment.unallocated) % get `\(experiment.control)`)."],
            change: .start(experiment: experiment.key), expectedRevision: experiment.revision)))
    }
}
