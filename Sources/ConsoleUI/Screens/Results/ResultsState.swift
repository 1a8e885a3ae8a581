import ExperimentCore
import ExperimentResults

/// The results the console holds for one experiment: loading (with progress), the report, or why not.
///
/// One at a time, kept while the user moves around, so `e` again or the resolve form's evidence
/// shows the same numbers without reading the logs again (Enter on the results screen reloads).
package struct ResultsState: Equatable, Sendable {
    package enum Phase: Equatable, Sendable {
        /// Reading the logs in the background: rows read and seconds elapsed so far.
        case loading(rows: Int, elapsed: Double)
        case loaded(ResultsReport)
        case failed(String)
        /// Esc stopped the reading after this many rows.
        case cancelled(rows: Int)
    }

    package var experimentKey: String
    /// The job reading the logs the results belong to; answers of an older one are dropped.
    package var job: JobID
    package var phase: Phase
    /// The metric shown (Tab cycles).
    package var metric = 0
    package var engine: StatsEngine

    package init(experimentKey: String, job: JobID, phase: Phase = .loading(rows: 0, elapsed: 0), engine: StatsEngine = .standard) {
        self.experimentKey = experimentKey
        self.job = job
        self.phase = phase
        self.engine = engine
    }

    /// The report when loaded.
    package var report: ResultsReport? {
        guard case .loaded(let report) = phase else { return nil }
        return report
    }

    package var isLoading: Bool {
        guard case .loading = phase else { return false }
        return true
    }
}

extension ResultsState {
    /// Whether `key`'s logs must be read: no results held for it, or they failed or were cancelled.
    static func needsReading(_ results: ResultsState?, of key: String) -> Bool {
        guard let results, results.experimentKey == key else { return true }
        switch results.phase {
        case .loaded, .loading: return false
        case .failed, .cancelled: return true
        }
    }
}

extension AppState {
    /// `Esc` stopped the read of job `id`: the results say so at once, with the rows read so far.
    mutating func stopLoadingResults(_ id: JobID) {
        guard let current = results, current.job == id, case .loading(let rows, _) = current.phase else { return }
        results?.phase = .cancelled(rows: rows)
        if case .results(let key)? = stack.last, key == current.experimentKey {
            message = .info("loading cancelled; Enter reads the logs again")
        }
    }

    /// Applies what job `id` read, if it is the current read.
    mutating func receiveResults(_ id: JobID, _ phase: ResultsState.Phase) {
        guard var current = results, current.job == id else { return }
        switch (current.phase, phase) {
        case (.loading, .loading), (.loading, .loaded), (.loading, .failed), (.cancelled, .loaded):
            current.phase = phase
        case (.loading(let rows, _), .cancelled):
            current.phase = .cancelled(rows: rows)
        default:
            // A cancelled read answers "cancelled" (or fails anyway): keep saying it was cancelled unless numbers came.
            return
        }
        if let report = current.report, report.engine != current.engine { current.phase = .loaded(report.with(engine: current.engine)) }
        if let count = current.report?.metrics.count, current.metric >= count { current.metric = 0 }
        results = current
    }
}
