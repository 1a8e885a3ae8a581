import ExperimentCore

/// One history entry as a line of text (terminal-safe).
enum HistoryLine {
    static func text(_ entry: HistoryEntry, showExperiment: Bool) -> String {
        let parts = [TimeLabel.utcMinutes(entry.at), entry.operatorName] + (showExperiment ? [entry.experiment] : []) + [entry.action.rawValue, entry.changeText]
        return SafeText.escaped(parts.joined(separator: "  "))
    }
}
