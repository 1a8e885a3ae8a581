import ExperimentCore
import ExperimentResults
import Foundation
import Synchronization

/// Reads event logs on a background thread and hands the answer back as actions, so the render loop never waits.
///
/// One load at a time matters to the user, but a cancelled one may still be finishing; each is
/// known by its request id and its answer is dropped by the update when stale.
final class ResultsLoader: Sendable {
    /// A load under way.
    private struct Job: Sendable {
        let id: Int
        let progress: ReadProgress
        let started: ContinuousClock.Instant
    }

    private let jobs = Mutex<[Job]>([])
    private let finished = Mutex<[Action]>([])
    private let lastReported = Mutex<[Int: Int]>([:])

    /// Starts reading in the background; the answer arrives through `poll()`.
    func start(id: Int, request: AnalysisRequest) {
        let job = Job(id: id, progress: ReadProgress(), started: .now)
        jobs.withLock { $0.append(job) }
        let thread = Thread { [self] in
            let action: Action
            do {
                action = .resultsLoaded(requestID: id, try Analyzer.analyze(request, progress: job.progress))
            } catch let error as EventError {
                action = .resultsFailed(requestID: id, message: error.message)
            } catch {
                action = .resultsFailed(requestID: id, message: "unexpected failure: \(error)")
            }
            finished.withLock { $0.append(action) }
            jobs.withLock { $0.removeAll { $0.id == id } }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Asks load `id` to stop at its next checkpoint.
    func cancel(id: Int) {
        jobs.withLock { $0.first { $0.id == id }?.progress.cancel() }
    }

    /// The answers that arrived, and a progress action per running load whose row count moved.
    func poll() -> [Action] {
        let done = finished.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
        let running = jobs.withLock { $0 }
        var progress: [Action] = []
        for job in running where !job.progress.isCancelled {
            let rows = job.progress.rows
            let moved = lastReported.withLock { reported in
                defer { reported[job.id] = rows }
                return reported[job.id] != rows
            }
            let elapsed = job.started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if moved || seconds >= 0.5 { progress.append(.resultsProgress(requestID: job.id, rows: rows, elapsed: seconds)) }
        }
        return progress + done
    }

    /// Whether a load is still running.
    var isBusy: Bool { jobs.withLock { !$0.isEmpty } }

    /// Waits (for tests and scripted runs) until no load is running, at most `timeout` seconds.
    func waitUntilIdle(timeout: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while isBusy, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.002) }
    }
}
