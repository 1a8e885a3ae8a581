import ExperimentCore

/// The decisions of the last inspection, one per experiment sorted by key, computed with the same
/// code as `abconsole inspect` once per store change (compiling an experiment hashes its whole
/// whitelist, so it is not done per frame).
struct InspectorResults: Sendable {
    /// The store revision, experiments and subject the decisions were computed for (the experiments
    /// compare by storage identity first, so checking an unchanged store costs nothing, and in full
    /// otherwise: a hand-edited file can change content without changing the revision).
    private(set) var revision: Int?
    private var source: [String: Experiment] = [:]
    private(set) var subject: Subject?
    private(set) var decisions: [Decision] = []

    /// Whether the decisions still describe `subject` in `snapshot`.
    func isCurrent(for snapshot: StoreSnapshot, subject: Subject?) -> Bool {
        revision == snapshot.revision && self.subject == subject && source == snapshot.experiments
    }

    /// Recomputes the decisions when the store or the subject changed.
    mutating func update(for snapshot: StoreSnapshot, subject: Subject?) {
        guard !isCurrent(for: snapshot, subject: subject) else { return }
        revision = snapshot.revision
        source = snapshot.experiments
        self.subject = subject
        decisions = subject.map { subject in
            let index = AssignmentIndex(snapshot)
            return snapshot.experiments.keys.sorted().compactMap { index.decide($0, for: subject) }
        } ?? []
    }
}
