import ExperimentCore
import ExperimentResults

/// The resolve form: pick the winner, type the experiment key to confirm this irreversible change.
package struct ResolveForm: Equatable, Sendable {
    /// The form's fields, in Tab order.
    package enum Field: Equatable, Sendable {
        case winner, confirmation
    }

    package var experimentKey: String
    /// The revision the form was opened on; resolving is refused if the experiment moved past it.
    package var revision: Int
    /// The variant names, in the experiment's order.
    package var variants: [String]
    /// The index of the chosen winner (the control at first: the safe choice).
    package var winner: Int
    /// What was typed on the winner field to pick a variant by name prefix.
    package var query = ""
    /// Where the experiment key must be typed exactly.
    package var confirmation = TextField()
    package var focus: Field = .winner
    /// Why the last key or Enter was refused, shown in the form until the next key.
    package var problem: String?
    /// Whitelisted subjects per variant (in variant order) when the form opened, counted once, not per frame.
    package var whitelistCounts: [Int]
    /// What another writer changed since the form opened (the form then shows the fresh state).
    package var changed: StaleNote?
    /// The objections (a mismatch, a guardrail failing or without data, a goal not calling the winner better) the operator was shown and may resolve past with a second Enter.
    package var acknowledged: String?

    /// A form for `experiment`, the winner field focused on its control.
    package init(_ experiment: Experiment) {
        experimentKey = experiment.key
        revision = experiment.revision
        variants = experiment.variants.map(\.name)
        winner = variants.firstIndex(of: experiment.control) ?? 0
        var counts: [String: Int] = [:]
        for entry in experiment.whitelist.values { counts[entry.variant, default: 0] += 1 }
        whitelistCounts = variants.map { counts[$0] ?? 0 }
    }

    /// The form on `experiment`'s fresh state after another writer changed it: the winner kept by
    /// name, the typed key cleared (an irreversible resolve is confirmed again), `note` saying what changed.
    func rebased(on experiment: Experiment, _ note: StaleNote) -> ResolveForm {
        var fresh = ResolveForm(experiment)
        if let index = fresh.variants.firstIndex(of: winnerName) { fresh.winner = index }
        fresh.focus = focus
        fresh.problem = problem
        fresh.changed = note
        return fresh
    }

    /// Picks the variant the goal favours when the experiment's results are read (else the control stays).
    mutating func preselectLeader(of results: ResultsState?) {
        guard let results, results.experimentKey == experimentKey, let report = results.report,
              let leader = DecisionText.goalLeader(report), let index = variants.firstIndex(of: leader) else { return }
        winner = index
    }

    /// The chosen winner's name.
    package var winnerName: String { variants.indices.contains(winner) ? variants[winner] : "" }

    /// Cycles the winner by `offset` (only while the winner field is focused); clears the typed name.
    mutating func cycleWinner(by offset: Int) {
        guard focus == .winner, !variants.isEmpty else { return }
        winner = ((winner + offset) % variants.count + variants.count) % variants.count
        query = ""
    }

    /// Types into the focused field: on the winner field, a name prefix that picks the first variant it starts.
    mutating func type(_ key: Key) {
        guard focus == .winner else {
            confirmation.type(key)
            return
        }
        switch key {
        case .character(let character) where !character.isNewline: query.append(character)
        case .backspace: if !query.isEmpty { query.removeLast() }
        case .control("u"): query = ""
        default: return
        }
        guard !query.isEmpty else { return }
        if let match = variants.firstIndex(where: { $0.hasPrefix(query.lowercased()) }) {
            winner = match
        } else {
            problem = "no variant starts with `\(query)`; the variants are \(variants.map { "`\($0)`" }.joined(separator: ", "))"
        }
    }
}
