import ExperimentCore

/// One history entry as a line of text (terminal-safe).
enum HistoryLine {
    static func text(_ entry: HistoryEntry, showExperiment: Bool) -> String {
        let change = "\(entry.before ?? "∅") → \(entry.after ?? "∅")"
        let parts = [TimeText.short(entry.at), entry.operatorName] + (showExperiment ? [entry.experiment] : []) + [entry.action.rawValue, change]
        return SafeText.escaped(parts.joined(separator: "  "))
    }
}
