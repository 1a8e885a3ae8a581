import ExperimentCore

/// What a screen or form may read while it handles a key: the store, the console's settings, the
/// derived rows and the room it has on screen. Handlers change only their own value and answer
/// with a `ScreenReply` for everything else.
struct ScreenContext {
    let snapshot: StoreSnapshot
    let readOnly: Bool
    /// The experiment the action keys act on (see `AppState.focusedExperiment`).
    let focusedExperiment: Experiment?
    /// The rows of a screen's area: the terminal less the title, status and help bars.
    let bodyHeight: Int
    let rows: RowCache
    /// The results read last (the resolve form weighs its objections on them).
    let results: ResultsState?

    init(_ state: AppState, rows: RowCache) {
        snapshot = state.snapshot
        readOnly = state.readOnly
        focusedExperiment = state.focusedExperiment
        bodyHeight = ConsoleView.bodyHeight(terminalHeight: state.size.height)
        self.rows = rows
        results = state.results
    }

    /// Why `what` cannot be done in a read-only console, or nil when writes are allowed.
    func writeRefusal(_ what: String) -> StatusMessage? {
        readOnly ? .error(AvailabilityFacts.readOnlyRefusal(what)) : nil
    }
}
