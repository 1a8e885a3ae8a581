/// A merge's units in the history's words, and the commands that set them.
enum MergeWords {
    /// An experiment's allocation, e.g. `running, control=50,treatment=50` or `resolved to green, control=50,green=50`.
    static func allocation(_ experiment: Experiment) -> String {
        let status = experiment.winner.map { "resolved to \($0)" } ?? experiment.status.rawValue
        var words = "\(status), \(experiment.weightSummary)"
        if experiment.control != experiment.variants.first?.name { words += ", control \(experiment.control)" }
        if experiment.salt != experiment.key { words += ", salt \(WhitelistEntry.quoted(experiment.salt))" }
        return words + (experiment.type == .device ? ", by device" : "")
    }

    /// The commands that turn OURS's allocation into THEIRS's, where commands can (new variants, weights, status).
    static func allocationCommands(ours: Experiment, theirs: Experiment) -> [[String]] {
        guard ours.status != .resolved else { return [] }
        var commands: [[String]] = []
        for variant in theirs.variants where ours.variant(named: variant.name) == nil {
            commands.append(["add-variant", theirs.key, variant.name])
        }
        let weights = theirs.variants.map { "\($0.name)=\($0.weight)" }
        if weights != ours.variants.map({ "\($0.name)=\($0.weight)" }) || !commands.isEmpty, theirs.status != .resolved {
            commands.append(["ramp", theirs.key] + weights)
        }
        if theirs.status != ours.status {
            switch theirs.status {
            case .running: commands.append(["start", theirs.key])
            case .paused: commands.append(["pause", theirs.key])
            case .resolved: commands.append(["resolve", theirs.key, theirs.winner ?? theirs.control])
            case .draft: break
            }
        }
        return commands
    }

    /// The command that creates `experiment` as it is (variants, weights, control, salt, description).
    static func createCommand(_ experiment: Experiment) -> [String] {
        var command = ["create", experiment.key, "--type", experiment.type.rawValue, "--variants", experiment.weightSummary,
                       "--control", experiment.control]
        if experiment.salt != experiment.key { command += ["--salt", experiment.salt] }
        if !experiment.description.isEmpty { command += ["--description", experiment.description] }
        return command
    }

    /// A whitelist entry as the history writes it, with who added it and the fields this version does
    /// not know (`user-1 → green, note "x" by alice, field tier=gold`), so entries that differ read differently.
    static func entry(_ entry: WhitelistEntry?) -> String? {
        entry.map { "\($0.historyText) by \($0.addedBy)" + fields($0.unknownFields) }
    }

    /// Unknown fields in words, in name order: `, field tier=gold, field rank=2`; empty when there are none.
    static func fields(_ unknown: [String: JSONValue]) -> String {
        unknown.keys.sorted().map { ", field \($0)=\(unknown[$0]?.compactText ?? "")" }.joined()
    }

    /// The commands that turn OURS's entry into THEIRS's; none when THEIRS's has a field this version
    /// does not know, which no command writes (the conflict then says to edit it by hand). A replaced
    /// entry keeps its unknown fields, so OURS's are dropped by removing it first.
    static func whitelistCommand(key: String, subject: String, ours: WhitelistEntry?, theirs: WhitelistEntry?) -> [[String]] {
        guard let theirs else { return [["whitelist", "remove", key, subject]] }
        guard theirs.unknownFields.isEmpty else { return [] }
        if ours?.unknownFields.isEmpty == false {
            return [["whitelist", "remove", key, subject], ["whitelist", "add", key, subject, theirs.variant, "--note", theirs.note]]
        }
        return [["whitelist", "add", key, subject, theirs.variant, "--note", theirs.note, "--replace"]]
    }

    static func payloadCommand(key: String, variant: String, theirs: JSONValue?) -> [[String]] {
        [["set-payload", key, variant] + [theirs.map(\.compactText) ?? "--clear"]]
    }

    /// An experiment's goal and guardrail metrics in the history's words (`goal purchase; guardrails refund:decrease`).
    static func metrics(_ metrics: ExperimentMetrics) -> String {
        let unknown = metrics.named.map { named in fields(named.unknownFields).replacingOccurrences(of: ", field ", with: ", \(named.metric) field ") }
        return (metrics.summary ?? "no goal or guardrail metrics") + fields(metrics.unknownFields) + unknown.joined()
    }

    /// An experiment's ramp plan in words (`step 1/3 active: steps control=90,green=10 → …; hold 24h; …`), or `no ramp plan`.
    static func plan(_ experiment: Experiment) -> String {
        guard let plan = experiment.plan else { return "no ramp plan" }
        let state = plan.state.rawValue.replacingOccurrences(of: "_", with: " ")
        let decision = plan.lastDecision.map { "; last \($0.action) at \(StoreDiff.dateText($0.at)): \($0.reason)" } ?? ""
        return "step \(plan.step)/\(plan.steps.count) \(state): " + plan.summary(order: experiment.variants.map(\.name)) + decision
            + fields(plan.unknownFields)
    }

    /// The command that sets `theirs`'s plan as a new plan (`ramp-plan … --clear` when it has none); none when its
    /// steps, state or decision are not what a new plan has, or it holds a field this version does not know.
    static func planCommand(key: String, _ theirs: Experiment) -> [[String]] {
        guard let plan = theirs.plan else { return [["ramp-plan", key, "--clear"]] }
        guard plan.unknownFields.isEmpty, plan.lastDecision == nil, plan.state == .active, plan.step <= 1 else { return [] }
        let order = theirs.variants.map(\.name)
        return [["ramp-plan", key] + plan.steps.map { RolloutPlan.weightsText($0, order: order) }
            + ["--hold", RolloutPlan.durationText(plan.holdSeconds), "--min-subjects", String(plan.minSubjects),
               "--on-guardrail", plan.onGuardrail.rawValue, "--on-srm", plan.onSRM.rawValue]]
    }

    /// The command that sets exactly `theirs` as the experiment's metrics; none when it holds a field this version does not know.
    static func metricsCommand(key: String, _ theirs: ExperimentMetrics) -> [[String]] {
        // Fields this version does not know: no command writes them (the conflict says to edit it by hand).
        guard theirs.unknownFields.isEmpty, theirs.named.allSatisfy(\.unknownFields.isEmpty) else { return [] }
        var command = ["set-metrics", key, "--clear"]
        if let goal = theirs.goal { command += ["--goal", goal.text] }
        for guardrail in theirs.guardrails { command += ["--guardrail", guardrail.text] }
        return [command]
    }
}
