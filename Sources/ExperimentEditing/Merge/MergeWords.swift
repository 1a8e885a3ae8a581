import ExperimentCore

/// A merge's units in the history's words, and the changes that set them.
enum MergeWords {
    /// An experiment's allocation, e.g. `running, control=50,treatment=50` or `resolved to green, control=50,green=50`.
    static func allocation(_ experiment: Experiment) -> String {
        let status = experiment.winner.map { "resolved to \($0)" } ?? experiment.status.rawValue
        var words = "\(status), \(experiment.weightSummary)"
        if experiment.control != experiment.variants.first?.name { words += ", control \(experiment.control)" }
        if experiment.salt != experiment.key { words += ", salt \(WhitelistEntry.quoted(experiment.salt))" }
        return words + (experiment.type == .device ? ", by device" : "")
    }

    /// The changes that turn OURS's allocation into THEIRS's, where changes can (new variants, weights, status).
    static func allocationChanges(ours: Experiment, theirs: Experiment) -> [Change] {
        guard ours.status != .resolved else { return [] }
        var changes: [Change] = []
        for variant in theirs.variants where ours.variant(named: variant.name) == nil {
            changes.append(.addVariant(experiment: theirs.key, name: variant.name, payload: nil))
        }
        if theirs.namedWeights != ours.namedWeights || !changes.isEmpty, theirs.status != .resolved {
            let weights = Dictionary(theirs.variants.map { ($0.name, $0.weight) }, uniquingKeysWith: { first, _ in first })
            changes.append(.ramp(experiment: theirs.key, weights: weights))
        }
        if theirs.status != ours.status {
            switch theirs.status {
            case .running: changes.append(.start(experiment: theirs.key))
            case .paused: changes.append(.pause(experiment: theirs.key))
            case .resolved: changes.append(.resolve(experiment: theirs.key, winner: theirs.winner ?? theirs.control))
            case .draft: break
            }
        }
        return changes
    }

    /// The change that creates `experiment` as it is (variants, weights, control, salt, description).
    static func createChange(_ experiment: Experiment) -> Change {
        .create(ExperimentDraft(key: experiment.key, type: experiment.type, variants: experiment.variants.map { ($0.name, $0.weight) },
                                control: experiment.control, salt: experiment.salt != experiment.key ? experiment.salt : nil,
                                description: experiment.description))
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

    /// The changes that turn OURS's entry into THEIRS's; none when THEIRS's has a field this version
    /// does not know, which no change writes (the conflict then says to edit it by hand). A replaced
    /// entry keeps its unknown fields, so OURS's are dropped by removing it first.
    static func whitelistChanges(key: String, subject: String, ours: WhitelistEntry?, theirs: WhitelistEntry?) -> [Change] {
        guard let theirs else { return [.whitelistRemove(experiment: key, subject: subject)] }
        guard theirs.unknownFields.isEmpty else { return [] }
        let add = { (replace: Bool) in Change.whitelistAdd(experiment: key, subject: subject, variant: theirs.variant, note: theirs.note, replace: replace) }
        if ours?.unknownFields.isEmpty == false {
            return [.whitelistRemove(experiment: key, subject: subject), add(false)]
        }
        return [add(true)]
    }

    /// The change that sets (or clears, nil) the payload of `variant` to THEIRS's.
    static func payloadChanges(key: String, variant: String, theirs: JSONValue?) -> [Change] {
        [.setPayload(experiment: key, variant: variant, payload: theirs)]
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

    /// The change that sets `theirs`'s plan as a new plan (a cleared plan when it has none); none when its
    /// steps, state or decision are not what a new plan has, or it holds a field this version does not know.
    static func planChanges(key: String, _ theirs: Experiment) -> [Change] {
        guard let plan = theirs.plan else { return [.edit(experiment: key, .clearPlan)] }
        guard plan.unknownFields.isEmpty, plan.lastDecision == nil, plan.state == .active, plan.step <= 1 else { return [] }
        return [.setPlan(experiment: key, plan: plan)]
    }

    /// The change that sets exactly `theirs` as the experiment's metrics; none when it holds a field this version does not know.
    static func metricsChanges(key: String, _ theirs: ExperimentMetrics) -> [Change] {
        // Fields this version does not know: no change writes them (the conflict says to edit it by hand).
        guard theirs.unknownFields.isEmpty, theirs.named.allSatisfy(\.unknownFields.isEmpty) else { return [] }
        return [.setMetrics(experiment: key, metrics: theirs)]
    }
}
