import ExperimentCore

/// What another writer changed in an experiment while a form or dialog about it was open, and by whom.
package struct StaleNote: Equatable, Sendable {
    /// e.g. "⚠ `checkout` changed while this was open: maria.pm ramped it at 2026-03-01 10:02:00 UTC
    /// (control=50,treat=50 → control=70,treat=30)".
    package var text: String

    /// The note for `key` opened on `revision`, from the store's newest history entry for it; nil when it did not move.
    init?(_ snapshot: StoreSnapshot, key: String, openedAt revision: Int) {
        guard let experiment = snapshot.experiments[key], experiment.revision != revision else { return nil }
        var text = "⚠ `\(key)` changed while this was open: "
        if let entry = snapshot.history.last(where: { $0.experiment == key }) {
            text += "\(entry.operatorName) \(Self.verb(entry.action)) at \(TimeLabel.utc(entry.at)) (\(entry.changeText))"
        } else {
            text += "\(experiment.updatedBy) changed it at \(TimeLabel.utc(experiment.updatedAt))"
        }
        let more = abs(experiment.revision - revision) - 1
        if more > 0 { text += ", after \(more) more \(more == 1 ? "change" : "changes")" }
        self.text = text
    }

    private static func verb(_ action: HistoryAction) -> String {
        switch action {
        case .create: "created it"
        case .start: "started it"
        case .pause: "paused it"
        case .ramp: "ramped it"
        case .resolve: "resolved it"
        case .delete: "deleted it"
        case .resalt: "re-randomized it"
        case .addVariant: "added a variant"
        case .setPayload: "set a payload"
        case .setDescription: "edited its description"
        case .setMetrics: "changed its goal and guardrail metrics"
        case .whitelistAdd: "changed its whitelist"
        case .whitelistRemove: "removed a subject from its whitelist"
        case .whitelistImport: "imported into its whitelist"
        case .revert: "took back a change in a merge"
        case .keep: "kept its side of a merge conflict"
        default: "changed it (`\(action.rawValue)`)"
        }
    }
}
