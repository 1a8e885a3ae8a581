import ExperimentCore

/// The warning a form shows when its experiment changed after the form opened.
enum StaleViewWarning {
    /// e.g. "⚠ alice changed `checkout` since you opened this (revision 3 → 4); confirming will be
    /// refused — Esc and press r again": `action` is what will be refused, `reopenKey` the key that
    /// opens the form afresh.
    static func text(_ experiment: Experiment, openedAt revision: Int, action: String, reopenKey: String) -> String {
        "⚠ \(experiment.updatedBy) changed `\(experiment.key)` since you opened this (revision \(revision) → \(experiment.revision)); \(action) will be refused — Esc and press \(reopenKey) again"
    }
}
