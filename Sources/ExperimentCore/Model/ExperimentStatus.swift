/// Where an experiment is in its lifecycle: `draft → running ⇄ paused`, `running | paused → resolved`.
public enum ExperimentStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case draft, running, paused, resolved

    /// Whether the lifecycle allows moving from this status to `next`.
    public func canMove(to next: ExperimentStatus) -> Bool {
        switch (self, next) {
        case (.draft, .running), (.running, .paused), (.paused, .running), (.running, .resolved), (.paused, .resolved): true
        default: false
        }
    }
}
