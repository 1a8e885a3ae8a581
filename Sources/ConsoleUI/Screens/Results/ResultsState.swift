import ExperimentCore
import ExperimentResults

/// The results the console holds for one experiment: loading (with progress), the report, or why not.
///
/// One at a time, kept while the user moves around, so `e` again or the resolve form's evidence
/// shows the same numbers without reading the logs again (Enter on the results screen reloads).
public struct ResultsState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Reading the logs in the background: rows read and seconds elapsed so far.
        case loading(rows: Int, elapsed: Double)
        case loaded(ResultsReport)
        case failed(String)
        /// Esc stopped the reading after this many rows.
        case cancelled(rows: Int)
    }

    public var experimentKey: String
    /// Which background load the results belong to; answers of an older one are dropped.
    public var requestID: Int
    public var phase: Phase
    /// The metric shown (Tab cycles).
    public var metric = 0
    public var engine: ResultsEngine

    public init(experimentKey: String, requestID: Int, phase: Phase = .loading(rows: 0, elapsed: 0), engine: ResultsEngine = .bayesian) {
        self.experimentKey = experimentKey
        self.requestID = requestID
        self.phase = phase
        self.engine = engine
    }

    /// The report when loaded.
    public var report: ResultsReport? {
        guard case .loaded(let report) = phase else { return nil }
        return report
    }

    public var isLoading: Bool {
        guard case .loading = phase else { return false }
        return true
    }
}

extension AppState {
    /// Starts reading the logs of `key` in the background unless results for it are loaded or loading.
    mutating func loadResults(of key: String, force: Bool = false) -> [Effect] {
        if !force, let results, results.experimentKey == key {
            switch results.phase {
            case .loaded, .loading: return []
            case .failed, .cancelled: break
            }
        }
        var effects: [Effect] = []
        if let results, results.isLoading { effects.append(.cancelResults(requestID: results.requestID)) }
        nextRequestID += 1
        results = ResultsState(experimentKey: key, requestID: nextRequestID, engine: results?.engine ?? .bayesian)
        return effects + [.loadResults(requestID: nextRequestID, experiment: key)]
    }

    /// Applies a background load's answer, if it is the current one.
    mutating func receiveResults(_ requestID: Int, _ phase: ResultsState.Phase) {
        guard var current = results, current.requestID == requestID else { return }
        if case .loading = phase, !current.isLoading { return }
        // A cancelled load answers "cancelled" (or finishes anyway): keep saying it was cancelled unless numbers came.
        if case .cancelled = current.phase, case .failed = phase { return }
        current.phase = phase
        if let report = current.report, report.engine != current.engine { current.phase = .loaded(report.with(engine: current.engine)) }
        if let count = current.report?.metrics.count, current.metric >= count { current.metric = 0 }
        results = current
    }
}
