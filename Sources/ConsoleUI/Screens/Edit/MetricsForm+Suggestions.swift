import ExperimentResults

extension MetricsForm {
    /// The line offering the metric names the experiment's logs hold (SPEC §12), read by the results
    /// job the form started: those starting with the name being typed, else all; nil before any read.
    func suggestions(_ results: ResultsState?) -> String? {
        guard let results, results.experimentKey == experimentKey else { return nil }
        switch results.phase {
        case .loading: return "reading the logs for the metric names they hold…"
        case .cancelled: return nil
        case .failed: return "no metric names from the logs (they cannot be read)"
        case .loaded(let report):
            let names = report.analysis.metrics.map(\.name).sorted()
            guard !names.isEmpty else { return "the logs name no metric for this experiment's subjects yet" }
            let typed = typedName
            let matching = typed.isEmpty ? [] : names.filter { $0.hasPrefix(typed) && $0 != typed }
            return "in the logs: " + (matching.isEmpty ? names : matching).joined(separator: " · ")
        }
    }

    /// The name being typed in the focused field: the goal's, or the guardrail list's last item (without `:direction`).
    private var typedName: String {
        let text = focus == .guardrails ? String(guardrails.text.split(separator: ",", omittingEmptySubsequences: false).last ?? "") : goal.text
        return String(text.trimmingSpaces.prefix { $0 != ":" })
    }
}
