extension Experiment {
    /// Why this experiment cannot move to `next`, in words a person can act on, or nil when the lifecycle allows it.
    ///
    /// Moving to the status it already has reads "already running" (callers may treat it as a
    /// no-op); the rest follow `ExperimentStatus.canMove(to:)`.
    public func lifecycleRefusal(to next: ExperimentStatus) -> String? {
        guard !status.canMove(to: next) else { return nil }
        switch (status, next) {
        case (.resolved, _):
            return ExperimentError.resolvedIsFrozen(experiment: key, what: next == .resolved ? "its winner" : "its status").message
        case (.draft, .resolved):
            return "`\(key)` is a draft: start it before resolving"
        case (.draft, .paused):
            return "`\(key)` is a draft: start it before pausing (a draft serves no one)"
        case _ where status == next:
            return alreadyText
        default:
            return ExperimentError.forbiddenTransition(experiment: key, from: status, to: next).message
        }
    }

    /// "`key` is already running": the words for a move to the status it has (a no-op, not an error, in the CLI).
    var alreadyText: String { "`\(key)` is already \(status.rawValue)" }
}
