import ExperimentCore
import ExperimentStore

extension ResolveForm {
    /// Handles a key while the form is open; returns the effects to perform.
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState) -> [Effect] {
        guard case .resolve(var form)? = app.overlay else { return [] }
        form.problem = nil
        switch intent {
        case .cancel?, .back?:
            app.overlay = nil
            app.message = .info("not resolved; nothing changed")
            return []
        case .nextField?, .previousField?:
            form.focus = form.focus == .winner ? .confirmation : .winner
        case .cycleNext?: form.cycleWinner(by: 1)
        case .cyclePrevious?: form.cycleWinner(by: -1)
        case .submit?:
            if let effect = submit(&form, &app) { return [effect] }
        default:
            form.type(key)
        }
        app.overlay = .resolve(form)
        return []
    }

    /// Enter: the resolve change when the typed key matches and the experiment can resolve, else why not.
    private static func submit(_ form: inout ResolveForm, _ app: inout AppState) -> Effect? {
        guard app.requireWritable("resolve") else { return nil }
        let key = form.experimentKey
        guard let experiment = app.snapshot.experiments[key] else {
            form.problem = ExperimentError.unknownExperiment(key).message
            return nil
        }
        guard experiment.status.canMove(to: .resolved) else {
            form.problem = experiment.status == .resolved
                ? ExperimentError.resolvedIsFrozen(experiment: key, what: "its winner").message
                : ExperimentError.forbiddenTransition(experiment: key, from: experiment.status, to: .resolved).message
            return nil
        }
        guard form.confirmation.text == key else {
            form.focus = .confirmation
            form.problem = form.confirmation.text.isEmpty
                ? "type the experiment key `\(key)` in the confirmation field to resolve"
                : "`\(form.confirmation.text)` is not `\(key)`; type the key exactly to resolve (this cannot be undone)"
            return nil
        }
        app.overlay = .resolve(form)
        return .apply(.resolve(experiment: key, winner: form.winnerName), expectedRevision: form.revision)
    }
}
