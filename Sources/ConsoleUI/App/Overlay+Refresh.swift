import ExperimentCore
import ExperimentEditing

/// How an open form or dialog follows a store that changed under it (another operator, a script,
/// or a refused save): one rule for every overlay, applied after every reload.
///
/// - Forms that show the experiment's numbers (the ramp editor, the resolve form) recompute them
///   from the fresh store, keep what was typed, and say what changed and by whom. The resolve form
///   also clears the typed key, so an irreversible resolve is confirmed again after the change.
/// - Confirmations restate a fixed question, so they are not rewritten under the user's finger:
///   they say what changed and by whom, and `y` asks again with the fresh numbers instead of
///   applying (their expected revision stays the old one, so the core would refuse anyway).
/// - Forms that show no numbers (whitelist add, import) follow the fresh store silently; the add
///   form checks the fresh whitelist when it saves (a subject listed meanwhile gets the replace question).
extension Overlay {
    /// The overlay brought up to date with `snapshot` (itself when its experiment did not move).
    func refreshed(_ snapshot: StoreSnapshot) -> Overlay {
        guard let key = experimentKey, let experiment = snapshot.experiments[key] else { return self }
        switch self {
        case .ramp(let editor):
            guard let note = StaleNote(snapshot, key: key, openedAt: editor.revision) else { return self }
            return .ramp(editor.rebased(on: experiment, note))
        case .resolve(let form):
            guard let note = StaleNote(snapshot, key: key, openedAt: form.revision) else { return self }
            return .resolve(form.rebased(on: experiment, note))
        case .confirm(var confirmation):
            confirmation.returnTo = confirmation.returnTo?.refreshed(snapshot)
            if let revision = confirmation.expectedRevision { confirmation.stale = StaleNote(snapshot, key: key, openedAt: revision) }
            return .confirm(confirmation)
        case .whitelistAdd(var form):
            form.follow(experiment)
            return .whitelistAdd(form)
        case .importCSV(var form):
            form.revision = experiment.revision
            return .importCSV(form)
        case .newExperiment, .variant, .textEdit, .conflicts, .metrics, .plan:
            // Their saves carry the revision they opened at: a change meanwhile is refused, whole, inside the form.
            return self
        }
    }

    /// The overlay reopened after its save was refused: the refusal shown whole inside it, or, for
    /// a whitelist add whose subject is now listed, the replace question.
    func reopened(refusedWith refusal: String, _ snapshot: StoreSnapshot) -> Overlay {
        switch self {
        case .ramp(var editor):
            editor.problem = refusal
            return .ramp(editor)
        case .resolve(var form):
            form.problem = refusal
            return .resolve(form)
        case .confirm(var confirmation):
            confirmation.refusal = refusal
            return .confirm(confirmation)
        case .whitelistAdd(let form):
            guard let experiment = snapshot.experiments[form.experimentKey],
                  let question = form.replaceQuestion(experiment, refusal: refusal) else { return self }
            return .confirm(question)
        case .variant(var form):
            form.problem = refusal
            return .variant(form)
        case .metrics(var form):
            form.problem = refusal
            return .metrics(form)
        case .importCSV, .newExperiment, .textEdit, .conflicts, .plan:
            return self
        }
    }
}

extension Confirmation {
    /// `y` on a stale confirmation: the same question asked again on the fresh store (the form that
    /// asked, brought up to date, or the lifecycle or removal question afresh); nothing is applied.
    func askedAgain(_ context: ScreenContext) -> ScreenReply {
        let key = change.experimentKey
        guard let experiment = context.snapshot.experiments[key] else {
            return .close(saying: .error(ExperimentError.unknownExperiment(key).message))
        }
        if let form = returnTo { return .replace(with: form) }
        switch change {
        case .edit(_, .start):
            return closing(LifecycleQuestion.ask(.running, experiment))
        case .edit(_, .pause):
            return closing(LifecycleQuestion.ask(.paused, experiment))
        case .edit(_, .whitelistRemove(let subject)):
            return closing(WhitelistScreen.askRemoval(experiment, subject: subject))
        default:
            return .close(saying: .info("nothing changed; `\(key)` changed meanwhile, so look at it again"))
        }
    }

    /// `reply` in place of this confirmation.
    private func closing(_ reply: ScreenReply) -> ScreenReply {
        reply.closingAnswerer
    }
}
