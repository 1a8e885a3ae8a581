import ExperimentCore
import Foundation

/// A change applied to one experiment, with what to write in the history.
struct AppliedChange {
    var action: HistoryAction
    var before: String?
    var after: String?
    var result: ChangeOutcome
    /// A ramp the change made besides (a plan's step), recorded as its own `ramp` entry after this one: each ramp starts a phase (§8).
    var ramp: (before: String, after: String)? = nil
}

extension Experiment {
    /// A new draft from `draft`, laid out contiguously from bucket 0.
    static func created(from draft: ExperimentDraft, context: ChangeContext) throws(ExperimentError) -> Experiment {
        guard Identifier.isValidName(draft.key) else { throw .invalidKey(draft.key) }
        guard !draft.variants.isEmpty else { throw .noVariants }
        var seen = Set<String>()
        for variant in draft.variants {
            guard Identifier.isValidName(variant.name) else { throw .invalidVariantName(variant.name) }
            guard seen.insert(variant.name).inserted else { throw .duplicateVariant(variant.name) }
        }
        let total = draft.variants.reduce(0) { $0 + $1.weight.buckets }
        guard total <= Weight.bucketCount else { throw .weightsOverHundred(experiment: draft.key, total: Weight(buckets: total)) }
        let control = draft.control ?? draft.variants[0].name
        guard seen.contains(control) else {
            throw .unknownVariant(experiment: draft.key, variant: control, known: draft.variants.map(\.name))
        }
        let salt = draft.salt ?? draft.key
        guard Identifier.isValidSubject(salt) else { throw .invalidSalt }
        guard draft.description.count <= StoreSnapshot.maxTextLength else {
            throw .textTooLong(field: "description", limit: StoreSnapshot.maxTextLength)
        }
        let ranges = Allocation.layout(draft.variants.map(\.weight))
        let variants = zip(draft.variants, ranges).map { Variant(name: $0.0.name, weight: $0.0.weight, ranges: $0.1) }
        return Experiment(key: draft.key, type: draft.type, status: .draft, salt: salt, control: control, winner: nil,
                          description: draft.description, revision: 1, createdAt: context.now, updatedAt: context.now,
                          updatedBy: context.operatorName, variants: variants, whitelist: [:])
    }

    /// The plan for ramping to `weights` (variants not named keep their weight), without applying it.
    public func rampPlan(to weights: [String: Weight]) throws(ExperimentError) -> RampPlan {
        if let refusal = refusal(for: .ramp(weights: weights)) { throw refusal }
        for name in weights.keys.sorted() where variant(named: name) == nil {
            throw .unknownVariant(experiment: key, variant: name, known: variants.map(\.name))
        }
        let newWeights = variants.map { weights[$0.name] ?? $0.weight }
        let total = newWeights.reduce(0) { $0 + $1.buckets }
        guard total <= Weight.bucketCount else { throw .weightsOverHundred(experiment: key, total: Weight(buckets: total)) }
        return Allocation.ramp(variants, to: newWeights)
    }

    /// Applies `change` to this experiment.
    ///
    /// Every check comes before the first change, so a thrown error leaves the experiment as it was
    /// (the store applies changes in place and relies on this). What the status forbids is
    /// `refusal(for:)`'s, checked first; the cases check only the change's own arguments.
    mutating func apply(_ change: ExperimentChange, context: ChangeContext) throws(ExperimentError) -> AppliedChange {
        if let refusal = refusal(for: change) { throw refusal }
        switch change {
        case .start:
            let before = status
            let pending = try pendingFirstStep()
            try move(to: .running)
            let verb = before == .paused ? "resumed" : "started"
            let planRamp = pending.map { takeFirstStep($0) }
            var applied = AppliedChange(action: .start, before: HistoryText.format(.status(before)), after: HistoryText.format(.status(status)),
                                        result: ChangeOutcome(message: "\(verb) `\(key)`; it now serves \(weightSummary)"
                                            + (planRamp == nil ? "" : " (step 1 of its ramp plan)"), ramp: planRamp?.plan))
            applied.ramp = planRamp?.entry
            return applied
        case .pause:
            try move(to: .paused)
            return AppliedChange(action: .pause, before: HistoryText.format(.status(.running)), after: HistoryText.format(.status(status)),
                                 result: ChangeOutcome(message: "paused `\(key)`; everyone now gets `\(control)` (kill switch)"))
        case .ramp(let weights):
            let before = HistoryText.format(.weights(namedWeights))
            let plan = try rampPlan(to: weights)
            variants = plan.variants
            let share = Experiment.percentText(plan.movedShare)
            return AppliedChange(action: .ramp, before: before, after: HistoryText.format(.weights(namedWeights)),
                                 result: ChangeOutcome(message: "ramped `\(key)` to \(weightSummary); \(share) of subjects switched variant", ramp: plan))
        case .resolve(let winner, let forced):
            guard variant(named: winner) != nil else { throw .unknownVariant(experiment: key, variant: winner, known: variants.map(\.name)) }
            let before = HistoryText.format(.statusWeights(status, namedWeights))
            try move(to: .resolved)
            self.winner = winner
            return AppliedChange(action: .resolve, before: before, after: HistoryText.format(.resolved(winner: winner, forcedPast: forced)),
                                 result: ChangeOutcome(message: "resolved `\(key)`: everyone now gets `\(winner)`, forever"))
        case .addVariant(let name, let payload):
            if let levels = payload?.levels, levels > JSONValue.maxLevels { throw .payloadTooDeep(levels: levels) }
            guard Identifier.isValidName(name) else { throw .invalidVariantName(name) }
            guard variant(named: name) == nil else { throw .duplicateVariant(name) }
            variants.append(Variant(name: name, weight: .zero, ranges: [], payload: payload))
            return AppliedChange(action: .addVariant, before: nil, after: HistoryText.format(.weights([NamedWeight(name: name, weight: .zero)])),
                                 result: ChangeOutcome(message: "added variant `\(name)` to `\(key)` at 0 %"))
        case .setPayload(let name, let payload):
            if let levels = payload?.levels, levels > JSONValue.maxLevels { throw .payloadTooDeep(levels: levels) }
            guard let index = variants.firstIndex(where: { $0.name == name }) else {
                throw .unknownVariant(experiment: key, variant: name, known: variants.map(\.name))
            }
            let before = variants[index].payload?.compactText
            variants[index].payload = payload
            return AppliedChange(action: .setPayload, before: before.map { "\(name) \($0)" }, after: payload.map { "\(name) \($0.compactText)" },
                                 result: ChangeOutcome(message: payload == nil ? "cleared the payload of `\(name)`" : "set the payload of `\(name)`"))
        case .setDescription(let text):
            guard Experiment.fits(text) else { throw .textTooLong(field: "description", limit: StoreSnapshot.maxTextLength) }
            let before = description
            description = text
            return AppliedChange(action: .setDescription, before: before, after: text,
                                 result: ChangeOutcome(message: text.isEmpty ? "cleared the description of `\(key)`" : "changed the description of `\(key)`"))
        case .setMetrics(let metrics):
            if let problem = metrics.problemsToSet.first { throw .invalidMetrics(problem.message) }
            let before = self.metrics.summary
            self.metrics = self.metrics.keepingUnknownFields(in: metrics)
            return AppliedChange(action: .setMetrics, before: before, after: metrics.summary,
                                 result: ChangeOutcome(message: metrics.summary.map { "`\(key)` now judges its variants by \($0)" }
                                     ?? "cleared the goal and guardrail metrics of `\(key)`"))
        case .whitelistAdd(let subject, let variantName, let note, let replace):
            try checkWhitelistable(subject: subject, variant: variantName, note: note)
            let existing = whitelist[SubjectID(subject)]
            if let existing, !replace { throw .alreadyWhitelisted(experiment: key, entry: existing) }
            var entry = WhitelistEntry(subject: subject, variant: variantName, note: note, addedBy: context.operatorName, addedAt: context.now)
            entry.unknownFields = existing?.unknownFields ?? [:]  // the subject's entry, replaced: fields a newer build wrote stay
            whitelist[SubjectID(subject)] = entry
            let message = existing.map { $0.variant == variantName && $0.note != note
                ? "changed the note of `\(subject)` in the whitelist of `\(key)`"
                : "replaced `\(subject)` in the whitelist of `\(key)`: `\($0.variant)` → `\(variantName)`" }
                ?? "whitelisted `\(subject)` into `\(variantName)` of `\(key)`"
            return AppliedChange(action: .whitelistAdd, before: existing?.historyText, after: entry.historyText,
                                 result: ChangeOutcome(message: message))
        case .whitelistNote(let subject, let note):
            guard let entry = whitelist[SubjectID(subject)] else { throw .notWhitelisted(experiment: key, subject: subject) }
            return try apply(.whitelistAdd(subject: entry.subject, variant: entry.variant, note: note, replace: true), context: context)
        case .whitelistRemove(let subject):
            guard let removed = whitelist.removeValue(forKey: SubjectID(subject)) else { throw .notWhitelisted(experiment: key, subject: subject) }
            return AppliedChange(action: .whitelistRemove, before: removed.historyText, after: nil,
                                 result: ChangeOutcome(message: "removed `\(subject)` from the whitelist of `\(key)`"))
        case .whitelistImport(let rows):
            return try importWhitelist(rows, context: context)
        case .setPlan, .clearPlan, .pausePlan, .resumePlan, .advancePlan, .rollBackPlan:
            return try applyPlan(change, context: context)
        case .resalt(let salt):
            guard Identifier.isValidSubject(salt) else { throw .invalidSalt }
            let before = self.salt
            self.salt = salt
            return AppliedChange(action: .resalt, before: before, after: salt,
                                 result: ChangeOutcome(message: "re-randomized `\(key)`: every subject was re-bucketed with the new salt"))
        }
    }

    /// Every bad row of an import, in line order (as `ImportProblems`, at most the first 50 kept), without applying it.
    public func importProblems(_ rows: [WhitelistRow]) -> ImportProblems {
        checkedImport(rows, context: ChangeContext(operatorName: "", now: Date(timeIntervalSince1970: 0))).problems
    }

    /// The rows as entries keyed by subject (the first row of a subject listed twice), and every bad row.
    private func checkedImport(_ rows: [WhitelistRow], context: ChangeContext) -> (incoming: [SubjectID: WhitelistEntry], problems: ImportProblems) {
        let names = variants.map(\.name)
        var problems = ImportProblems()
        var incoming = [SubjectID: WhitelistEntry](minimumCapacity: rows.count)
        for row in rows {
            guard Identifier.isValidSubject(row.subject) else {
                problems.append(line: row.line, ExperimentError.invalidSubject(row.subject).message)
                continue
            }
            guard !Identifier.hasOuterWhitespace(row.subject) else {
                problems.append(line: row.line, ExperimentError.subjectWithOuterWhitespace(row.subject).message)
                continue
            }
            guard names.contains(row.variant) else {
                problems.append(line: row.line, ExperimentError.unknownVariant(experiment: key, variant: row.variant, known: names).message)
                continue
            }
            guard Experiment.fits(row.note) else {
                problems.append(line: row.line, ExperimentError.textTooLong(field: "note", limit: StoreSnapshot.maxTextLength).message)
                continue
            }
            let entry = WhitelistEntry(subject: row.subject, variant: row.variant, note: row.note, addedBy: context.operatorName, addedAt: context.now)
            if let first = incoming.updateValue(entry, forKey: SubjectID(row.subject)) {
                incoming[SubjectID(row.subject)] = first
                // Finding the earlier line is a scan: done only for the lines a refusal shows.
                let earlier = problems.total < ImportProblems.shownLimit ? rows.first { SubjectID($0.subject) == SubjectID(row.subject) }?.line : nil
                problems.append(line: row.line, "subject `\(row.subject)` is already listed" + (earlier.map { " on line \($0)" } ?? " above"))
            }
        }
        return (incoming, problems)
    }

    /// Adds or replaces every row, or none when any row is bad (naming every bad line).
    private mutating func importWhitelist(_ rows: [WhitelistRow], context: ChangeContext) throws(ExperimentError) -> AppliedChange {
        guard !rows.isEmpty else { throw .emptyImport }
        // The rows become entries in one dictionary, which is the whitelist itself when there was none.
        let (incoming, problems) = checkedImport(rows, context: context)
        if let error = problems.error { throw error }
        // Which subjects are new and which replaced, for the history: the first few in file order.
        var listed: [(subject: String, isNew: Bool)] = []
        for row in rows.prefix(ImportSummary.listedSubjects) { listed.append((row.subject, whitelist[SubjectID(row.subject)] == nil)) }
        var replaced = 0
        if whitelist.isEmpty {
            whitelist = incoming
        } else {
            whitelist.reserveCapacity(whitelist.count + incoming.count)
            for (subject, entry) in incoming {
                guard let old = whitelist.updateValue(entry, forKey: subject) else { continue }
                replaced += 1
                if !old.unknownFields.isEmpty { whitelist[subject]?.unknownFields = old.unknownFields }
            }
        }
        let counts = "\(rows.count) \(rows.count == 1 ? "entry" : "entries") (\(rows.count - replaced) new, \(replaced) replaced)"
        return AppliedChange(action: .whitelistImport, before: nil, after: ImportSummary.text(counts: counts, listed: listed, total: rows.count),
                             result: ChangeOutcome(message: "imported \(counts) into the whitelist of `\(key)`"))
    }

    /// Whether `text` is within the longest description or note (counting characters only when the bytes could be over).
    static func fits(_ text: String) -> Bool {
        text.utf8.count <= StoreSnapshot.maxTextLength || text.count <= StoreSnapshot.maxTextLength
    }

    private func checkWhitelistable(subject: String, variant name: String, note: String) throws(ExperimentError) {
        guard Identifier.isValidSubject(subject) else { throw .invalidSubject(subject) }
        guard !Identifier.hasOuterWhitespace(subject) else { throw .subjectWithOuterWhitespace(subject) }
        guard variant(named: name) != nil else { throw .unknownVariant(experiment: key, variant: name, known: variants.map(\.name)) }
        guard Experiment.fits(note) else { throw .textTooLong(field: "note", limit: StoreSnapshot.maxTextLength) }
    }

    /// Moves to `next`; `refusal(for:)` has refused every move the lifecycle forbids but one to the
    /// status it has, which the store answers with `alreadyDone` before applying.
    private mutating func move(to next: ExperimentStatus) throws(ExperimentError) {
        guard status.canMove(to: next) else { throw .forbiddenTransition(experiment: key, from: status, to: next) }
        status = next
    }

    /// A share in 0…1 as a percentage with up to two decimals, e.g. `20 %`, `0.15 %`.
    public static func percentText(_ share: Double) -> String {
        "\(Weight(buckets: Int((share * Double(Weight.bucketCount)).rounded()))) %"
    }
}
