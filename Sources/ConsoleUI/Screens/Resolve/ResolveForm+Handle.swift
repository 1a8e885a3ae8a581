import ExperimentCore
import ExperimentEditing
import ExperimentResults

extension ResolveForm {
    /// Handles a key while the form is open.
    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        problem = nil
        switch intent {
        case .cancel?, .back?:
            return .close(saying: .info("not resolved; nothing changed"))
        case .nextField?, .previousField?:
            focus = focus == .winner ? .confirmation : .winner
            if focus == .confirmation { confirmation.selectAll() }
        case .cycleNext? where focus == .winner: cycleWinner(by: 1)
        case .cyclePrevious? where focus == .winner: cycleWinner(by: -1)
        case .submit?:
            return submit(context)
        default:
            type(key)
        }
        return .none
    }

    /// Enter: the resolve change when the typed key matches and the experiment can resolve, else why not.
    private mutating func submit(_ context: ScreenContext) -> ScreenReply {
        if let refusal = context.writeRefusal("resolve") { return .show(refusal) }
        let key = experimentKey
        guard let experiment = context.snapshot.experiments[key] else {
            problem = ExperimentError.unknownExperiment(key).message
            return .none
        }
        if let refusal = experiment.refusalText(for: .resolve(winner: winnerName)) {
            problem = refusal
            return .none
        }
        guard confirmation.text == key else {
            focus = .confirmation
            confirmation.selectAll()
            problem = confirmation.text.isEmpty
                ? "type the experiment key `\(key)` in the confirmation field to resolve"
                : "`\(confirmation.text)` is not `\(key)`; type the key exactly to resolve (this cannot be undone)"
            return .none
        }
        // A mismatch, a guardrail failing for the winner or without data, a winner the goal does not
        // call better, or no results to judge an experiment with metrics by: asked a second time, and recorded when resolved past.
        let report = context.results.flatMap { $0.experimentKey == key ? $0.report : nil }
        var objections = report.map { DecisionText.resolveObjections($0, winner: winnerName) + DecisionText.goalDoubts($0, winner: winnerName) } ?? []
        if report == nil, !experiment.metrics.isEmpty { objections.append("no results read to judge `\(winnerName)` by") }
        let forced = objections.isEmpty ? nil : objections.joined(separator: "; ")
        if let forced, acknowledged != forced {
            acknowledged = forced
            problem = "\(forced); Enter again resolves anyway (the history records it)"
            return .none
        }
        return .start(.apply(.resolve(experiment: key, winner: winnerName, forced: forced), expectedRevision: revision))
    }
}
