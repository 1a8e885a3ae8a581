import ConsoleUI
import ExperimentCore
import ExperimentEditing
import ExperimentResults
import ResultsReading
import ExperimentStore
import Foundation

/// Runs the console over a real store: feeds keys to the update, performs its effects, renders.
///
/// No terminal here: the ncurses front hands keys in and paints what `render` returns, and story
/// tests drive the same session with key sequences over a store in a temp directory. Jobs (saves,
/// reads of the event logs) run on a `JobRunner` queue; their reports are applied on the calling thread by `send`, `tick`
/// and `waitForJobs`, so the state is only ever touched by the thread that drives the session.
package final class ConsoleSession {
    package private(set) var state: AppState
    /// Set when an effect asked to quit.
    package private(set) var exitCode: Int32?
    private let store: StoreFile
    private let clock: () -> Date
    private var fingerprint: StoreFingerprint?
    private let runner = JobRunner()
    /// The derived rows, kept across keys and frames.
    private let rows = RowCache()
    /// How long `send` waits for a job it started, so a quick save shows its result in the next frame.
    private let settleTime: Double
    /// Where the event logs are (SPEC §8 defaults: `events/` beside the store).
    private let eventPaths: EventPaths
    /// How many threads read the event logs (the entry point's choice; one unless it says more).
    private let readParallelism: ReadParallelism
    /// Where the store stands in git, read off the loop.
    private let git: GitPoller

    /// Opens the session on `store`; throws when the store cannot be read or is invalid.
    package init(store: StoreFile, operatorName: String, readOnly: Bool = false, settleTime: Double = 0.05,
                clock: @escaping () -> Date = Date.init, eventPaths: EventPaths? = nil,
                readParallelism: ReadParallelism = .single) throws(StoreError) {
        self.store = store
        self.clock = clock
        self.settleTime = settleTime
        self.eventPaths = eventPaths ?? EventPaths(besideStore: store.path)
        self.readParallelism = readParallelism
        git = GitPoller(storePath: store.path, fastPaths: store.fastPaths)
        fingerprint = store.fingerprint()
        let snapshot = try store.load()
        state = AppState(snapshot: snapshot, storePath: store.path, operatorName: operatorName, readOnly: readOnly)
    }

    /// Handles one key and performs the effects it produced.
    package func send(_ key: Key) {
        let started = state.nextJobID
        dispatch(.key(key))
        // Only a key that started a store write waits for it; other keys (and reads of the logs) never wait.
        wait(seconds: state.nextJobID != started ? settleTime : 0) {
            !$0.jobs.contains { $0.id.value >= started && $0.work.writesStore }
        }
    }

    /// Types each character of `text` as a key (for tests and scripted input).
    package func type(_ text: String) {
        for character in text { send(.character(character)) }
    }

    /// Tells the update the terminal's size.
    package func resize(width: Int, height: Int) {
        guard state.size != TerminalSize(width: width, height: height) else { return }
        dispatch(.resized(width: width, height: height))
    }

    /// Applies what the jobs reported, then reloads the store when it changed on disk (another
    /// operator or a script); not while this console's own save may be writing it.
    package func tick() {
        applyReports()
        if let reading = git.take() { dispatch(.gitRead(reading.status, conflicts: reading.conflicts, trouble: reading.trouble)) }
        git.pollIfDue()
        guard state.storeJob == nil else { return }
        let current = store.fingerprint()
        guard current != fingerprint else { return }
        fingerprint = current
        do {
            dispatch(.storeReloaded(try store.load()))
        } catch {
            dispatch(.storeUnreadable(message: error.message, trouble: StoreTrouble(error)))
        }
    }

    /// Applies job reports as they arrive until no job runs or `seconds` pass; returns whether all finished.
    @discardableResult
    package func waitForJobs(seconds: Double) -> Bool {
        wait(seconds: seconds) { $0.jobs.isEmpty }
    }

    /// Applies job reports as they arrive until `done` holds or `seconds` pass; returns whether it holds.
    @discardableResult
    private func wait(seconds: Double, until done: (AppState) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        applyReports()
        while !done(state) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            _ = runner.waitForReport(seconds: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            applyReports()
        }
        return true
    }

    /// Asks every job to stop and waits up to `seconds` for them (before the process exits, so a
    /// save that has the lock finishes rather than being cut off).
    package func finishJobs(seconds: Double) {
        git.end()
        for job in state.jobs { runner.cancel(job.id) }
        waitForJobs(seconds: seconds)
    }

    /// Waits until every job (reads of the logs included) is done, then takes in their answers (tests and scripted runs).
    package func settle(timeout: Double = 10) {
        waitForJobs(seconds: timeout)
        tick()
    }

    /// The screen for a terminal of `width` × `height`.
    package func render(width: Int, height: Int) -> ScreenBuffer {
        ConsoleView.render(state, rows: rows, width: width, height: height)
    }

    private func applyReports() {
        for report in runner.drain() {
            switch report.event {
            case .progress(let progress):
                dispatch(.jobProgress(report.id, progress))
            case .finished(let outcome):
                if let written = report.storeFingerprint { fingerprint = written }
                dispatch(.jobFinished(report.id, outcome))
            }
        }
    }

    private func dispatch(_ action: Action) {
        for effect in ConsoleUpdate.update(&state, action, now: clock(), rows: rows) { perform(effect) }
    }

    /// Performs one effect; a job's results come back later through `applyReports`.
    private func perform(_ effect: Effect) {
        switch effect {
        case .quit(let code):
            exitCode = code
        case .start(let id, let work):
            runner.start(id, writesStore: work.writesStore, performer(for: work))
        case .cancel(let id):
            runner.cancel(id)
        }
    }

    /// What runs `work` off the loop: each kind of work names its performer here.
    private func performer(for work: Work) -> @Sendable (JobControl) -> (JobOutcome, StoreFingerprint?) {
        let worker = StoreWorker(store: store, context: changeContext())
        switch work {
        case .apply(let change, let expectedRevision):
            return { control in worker.apply(change, expectedRevision: expectedRevision, control) }
        case .importWhitelist(let experiment, let path, let expectedRevision):
            return { control in worker.importWhitelist(experiment, path: path, expectedRevision: expectedRevision, control) }
        case .readResults(let key):
            guard let experiment = state.snapshot.experiments[key] else { return { control in (ResultsReader.read(nil, experiment: key, parallelism: .single, control), nil) } }
            let window: ResultsWindow
            do {
                window = try ResultsWindow.resolve(experiment, history: state.snapshot.history, now: clock())
            } catch {
                let message = error.message  // a history text that does not read: the results screen says which entry
                return { _ in (.resultsFailed(message: message), nil) }
            }
            let request = AnalysisRequest(experiment: experiment, window: window, exposuresPath: eventPaths.exposures,
                                          conversionsPath: eventPaths.conversions)
            let parallelism = readParallelism
            return { control in (ResultsReader.read(request, experiment: key, parallelism: parallelism, control), nil) }
        case .resolveConflicts(let shown, let theirs):
            return { control in worker.resolveConflicts(shown: shown, takingTheirs: theirs, control) }
        }
    }

    private func changeContext() -> ChangeContext {
        ChangeContext(operatorName: state.operatorName, at: clock())
    }
}
