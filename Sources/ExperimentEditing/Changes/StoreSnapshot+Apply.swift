import ExperimentCore
import Foundation

extension StoreSnapshot {
    /// The longest description or whitelist note accepted, in characters.
    public static let maxTextLength = 10_000

    /// Applies `change` as `context.operatorName` at `context.now`, recording it in the history.
    ///
    /// When `expectedRevision` is given and the experiment's revision differs, the change is refused
    /// as a conflict naming who changed it: nothing is applied blindly. On any error the snapshot is
    /// left exactly as it was.
    @discardableResult
    public mutating func apply(_ change: Change, expectedRevision: Int? = nil, context: ChangeContext) throws(ExperimentError) -> ChangeOutcome {
        guard Identifier.isValidSubject(context.operatorName) else { throw .invalidOperator(context.operatorName) }
        switch change {
        case .create(let draft):
            let key = draft.key
            guard experiments[key] == nil else { throw .experimentExists(key) }
            let experiment = try Experiment.created(from: draft, context: context)
            experiments[key] = experiment
            record(context, key, .create, before: nil, after: HistoryText.format(.statusWeights(experiment.status, experiment.namedWeights)))
            return ChangeOutcome(message: "created draft `\(key)` (\(experiment.weightSummary))", revision: experiment.revision)
        case .delete(let key):
            let draft = try current(key, expectedRevision: expectedRevision)
            if let refusal = draft.deleteRefusal { throw refusal }
            experiments[key] = nil
            record(context, key, .delete, before: HistoryText.format(.statusWeights(.draft, draft.namedWeights)), after: nil)
            return ChangeOutcome(message: "deleted draft `\(key)`", revision: nil)
        case .edit(let key, let edit):
            let experiment = try current(key, expectedRevision: expectedRevision)
            // A start of a running or a pause of a paused experiment succeeds without a change or a history entry.
            if let message = experiment.alreadyDone(edit) { return ChangeOutcome(message: message, revision: experiment.revision) }
            guard let index = experiments.index(forKey: key) else { throw .unknownExperiment(key) }
            // In place, so a million-entry whitelist is not copied; `Experiment.apply` checks before it changes anything.
            var outcome = try experiments.values[index].apply(edit, context: context)
            experiments.values[index].revision += 1
            experiments.values[index].updatedAt = context.now
            experiments.values[index].updatedBy = context.operatorName
            record(context, key, outcome.action, before: outcome.before, after: outcome.after)
            if let ramp = outcome.ramp { record(context, key, .ramp, before: ramp.before, after: ramp.after) }
            outcome.result.revision = experiments.values[index].revision
            return outcome.result
        }
    }

    /// The experiment `key`, refused as a conflict when `expectedRevision` is given and differs.
    private func current(_ key: String, expectedRevision: Int?) throws(ExperimentError) -> Experiment {
        guard let experiment = experiments[key] else { throw .unknownExperiment(key) }
        if let expectedRevision, expectedRevision != experiment.revision {
            throw .conflict(experiment: key, expected: expectedRevision, actual: experiment.revision,
                            by: experiment.updatedBy, at: experiment.updatedAt)
        }
        return experiment
    }

    /// Records one history entry as `context`'s operator at its time (placed by its time), counted in the store's revision.
    mutating func record(_ context: ChangeContext, _ key: String, _ action: HistoryAction, before: String?, after: String?) {
        revision += 1
        history.insertInTimeOrder(HistoryEntry(at: context.now, operatorName: context.operatorName, experiment: key,
                                               action: action, before: before, after: after))
    }
}
