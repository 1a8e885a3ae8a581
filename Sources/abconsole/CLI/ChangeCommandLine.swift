import ExperimentCore
import ExperimentEditing

/// A change as the `abconsole` command line that makes it: how a merge conflict says to take THEIRS.
/// Every line it words is one the command table parses (`ChangeCommandLineTests`).
enum ChangeCommandLine {
    /// The arguments (without `abconsole`) of the commands that make `changes` in order, weights and
    /// plan steps listed in `order`; nil when a change has no command (the unit is then edited by hand).
    static func lines(_ changes: [Change], order: [String]) -> [[String]]? {
        var lines: [[String]] = []
        for change in changes {
            guard let line = words(change, order: order) else { return nil }
            lines.append(line)
        }
        return lines.isEmpty ? nil : lines
    }

    /// The arguments of the command that makes `change`; nil when no command does.
    static func words(_ change: Change, order: [String]) -> [String]? {
        switch change {
        case .create(let draft):
            let weights = draft.variants.map { NamedWeight(name: $0.name, weight: $0.weight) }
            var words = ["create", draft.key, "--type", draft.type.rawValue, "--variants", HistoryText.weightsText(weights)]
            if let control = draft.control { words += ["--control", control] }
            if let salt = draft.salt { words += ["--salt", salt] }
            if !draft.description.isEmpty { words += ["--description", draft.description] }
            return words
        case .delete(let key):
            return ["delete", key]
        case .edit(let key, let edit):
            return words(edit, key: key, order: order)
        }
    }

    /// The arguments of the command that makes `edit` on experiment `key`; nil when no command does.
    private static func words(_ edit: ExperimentChange, key: String, order: [String]) -> [String]? {
        switch edit {
        case .addVariant(let name, let payload):
            return ["add-variant", key, name] + (payload.map { ["--payload", $0.compactText] } ?? [])
        case .setPayload(let variant, let payload):
            return ["set-payload", key, variant, payload?.compactText ?? "--clear"]
        case .setDescription(let text):
            return ["set-description", key, text]
        case .start:
            return ["start", key]
        case .pause:
            return ["pause", key]
        case .ramp(let weights):
            let names = order.filter { weights[$0] != nil } + weights.keys.filter { !order.contains($0) }.sorted()
            return ["ramp", key] + names.map { "\($0)=\(weights[$0] ?? .zero)" }
        case .whitelistAdd(let subject, let variant, let note, let replace):
            return ["whitelist", "add", key, subject, variant, "--note", note] + (replace ? ["--replace"] : [])
        case .whitelistNote(let subject, let note):
            return ["whitelist", "note", key, subject, note]
        case .whitelistRemove(let subject):
            return ["whitelist", "remove", key, subject]
        case .resolve(let winner, .none):
            return ["resolve", key, winner]
        case .setMetrics(let metrics):
            var words = ["set-metrics", key, "--clear"]
            if let goal = metrics.goal { words += ["--goal", goal.text] }
            for guardrail in metrics.guardrails { words += ["--guardrail", guardrail.text] }
            return words
        case .setPlan(let plan):
            return ["ramp-plan", key] + plan.steps.map { RolloutPlan.weightsText($0, order: order) }
                + ["--hold", RolloutPlan.durationText(plan.holdSeconds), "--min-subjects", String(plan.minSubjects),
                   "--on-guardrail", plan.onGuardrail.rawValue, "--on-srm", plan.onSRM.rawValue]
        case .clearPlan:
            return ["ramp-plan", key, "--clear"]
        case .pausePlan:
            return ["ramp-plan", key, "--pause"]
        case .resumePlan:
            return ["ramp-plan", key, "--resume"]
        case .resolve, .whitelistImport, .resalt, .advancePlan, .rollBackPlan:
            return nil
        }
    }
}
