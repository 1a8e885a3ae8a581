import ExperimentCore

extension Experiment {
    /// Why this experiment, as it stands, refuses `change`, or nil when its status allows it.
    ///
    /// The one rule for what a status forbids: `apply` throws what it returns before it looks at
    /// the change's arguments, and the console's availability shows its words when a key is
    /// pressed. A change that is already true (`start` of a running experiment, `pause` of a paused
    /// one) is not refused: `alreadyDone(_:)` says so, and the store succeeds without writing.
    public func refusal(for change: ExperimentChange) -> ExperimentError? {
        switch change {
        case .setDescription, .setMetrics: nil
        case .start: transitionRefusal(to: .running)
        case .pause: transitionRefusal(to: .paused)
        case .resolve: transitionRefusal(to: .resolved)
        case .ramp: frozen("its weights")
        case .addVariant: frozen("its variants")
        case .setPayload: frozen("its payloads")
        case .whitelistAdd, .whitelistNote, .whitelistRemove, .whitelistImport: frozen("its whitelist")
        case .resalt: frozen("its salt")
        case .setPlan, .pausePlan, .resumePlan: frozen("its ramp plan")
        case .clearPlan: nil
        case .advancePlan, .rollBackPlan: frozen("its weights")
        }
    }

    /// Why this experiment cannot be deleted, or nil when it can: only a draft, which has served no
    /// one (old clients keep asking for a served key). The store's `delete` and the console's `D` ask this.
    public var deleteRefusal: ExperimentError? {
        status == .draft ? nil : .deleteServed(experiment: key, status: status)
    }

    /// What a front says instead of applying `change`: its refusal, or that it is already done; nil when it applies.
    public func refusalText(for change: ExperimentChange) -> String? {
        refusal(for: change)?.message ?? alreadyDone(change)
    }

    /// What to say when `change` is already true of this experiment (starting a running one,
    /// pausing a paused one), so it succeeds without writing; nil when it would change something.
    public func alreadyDone(_ change: ExperimentChange) -> String? {
        switch (change, status) {
        case (.start, .running), (.pause, .paused): "`\(key)` is already \(status.rawValue)"
        case (.setMetrics(let wanted), _) where wanted == metrics:
            "`\(key)` already has " + (metrics.summary ?? "no goal or guardrail metrics") + "; nothing changed"
        case (.clearPlan, _) where plan == nil: "`\(key)` has no ramp plan; nothing changed"
        case (.pausePlan, _) where plan?.state == .paused: "the ramp plan of `\(key)` is already paused"
        case (.resumePlan, _) where plan?.state == .active: "the ramp plan of `\(key)` is already active"
        default: nil
        }
    }

    /// A move to `next`: a resolved experiment's status and winner are final; a move to the status it
    /// has is not refused (`alreadyDone`); the rest follow `ExperimentStatus.canMove(to:)`.
    private func transitionRefusal(to next: ExperimentStatus) -> ExperimentError? {
        if status == .resolved { return .resolvedIsFrozen(experiment: key, what: next == .resolved ? "its winner" : "its status") }
        if status == next || status.canMove(to: next) { return nil }
        return .forbiddenTransition(experiment: key, from: status, to: next)
    }

    private func frozen(_ what: String) -> ExperimentError? {
        status == .resolved ? .resolvedIsFrozen(experiment: key, what: what) : nil
    }
}
