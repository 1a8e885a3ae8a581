import ExperimentCore

/// Rows derived from the state — the list's sorted and filtered experiments, a whitelist's sorted
/// entries, the inspector's decisions — kept per input so neither keys nor frames rebuild them.
///
/// Not part of `AppState`: every answer is a function of the store and the screen's input, so the
/// state stays a plain value with exact equality. The session keeps one cache for its lifetime and
/// hands it to the update and the views; a fresh cache gives the same answers, only slower.
package final class RowCache {
    private var list = ListRows()
    /// One whitelist at a time: the one on screen.
    private var whitelistKey: String?
    private var whitelist = WhitelistRows()
    private var inspector = InspectorResults()

    package init() {}

    /// The list's experiments in `snapshot` matching `filter`, sorted by key.
    func listRows(_ snapshot: StoreSnapshot, filter: String) -> ListRows {
        list.update(for: snapshot, filter: filter)
        return list
    }

    /// The list rows the state shows.
    func listRows(_ state: AppState) -> ListRows { listRows(state.snapshot, filter: state.list.filter) }

    /// `experiment`'s whitelist entries matching `filter`, in subject order.
    func whitelistRows(_ experiment: Experiment, filter: String) -> WhitelistRows {
        if whitelistKey != experiment.key {
            whitelistKey = experiment.key
            whitelist = WhitelistRows()
        }
        whitelist.update(for: experiment, filter: filter)
        return whitelist
    }

    /// Every experiment's decision for `subject` (none without a subject), sorted by experiment key.
    func decisions(_ snapshot: StoreSnapshot, subject: Subject?) -> [Decision] {
        inspector.update(for: snapshot, subject: subject)
        return inspector.decisions
    }
}
