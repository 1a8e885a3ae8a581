import ExperimentCore

/// Which whitelist entries a change reads or writes, so a transaction can load only those.
extension Change {
    /// The subjects whose entries the edit may read or write, when it touches no other entry
    /// (`Experiment.apply` looks each up by subject and changes only it); empty for an edit that
    /// never looks at the whitelist; nil for one that may read all of it (an import) and for
    /// `create` and `delete`.
    package var whitelistSubjects: [String]? {
        guard case .edit(_, let edit) = self else { return nil }
        switch edit {
        case .whitelistAdd(let subject, _, _, _), .whitelistNote(let subject, _), .whitelistRemove(let subject): return [subject]
        case .whitelistImport: return nil
        case .addVariant, .setPayload, .setDescription, .start, .pause, .ramp, .resolve, .setMetrics, .resalt,
             .setPlan, .clearPlan, .pausePlan, .resumePlan, .advancePlan, .rollBackPlan: return []
        }
    }
}
