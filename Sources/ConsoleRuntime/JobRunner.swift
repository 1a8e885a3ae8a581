import ConsoleUI
import ExperimentStore
import Foundation

/// Runs jobs on a background queue and hands their progress and outcomes back to the loop thread.
///
/// The loop thread starts and cancels jobs and `drain`s the reports; the work runs on a background
/// queue — store writes one after another on a serial queue, so two saves of this console never
/// race for the lock, other work (reads, loads) concurrently — and only touches the runner through
/// `JobControl`. Every started job reports exactly one outcome.
/// `@unchecked Sendable`: `reports` and `cancelled` are touched only under `lock`; the rest are `let`s.
final class JobRunner: @unchecked Sendable {
    /// Something a job said, in the order it said it.
    struct Report: Sendable {
        let id: JobID
        let event: Event
        /// The store's fingerprint just after a job that wrote it, so the session does not reload its own save.
        var storeFingerprint: StoreFingerprint?
    }

    enum Event: Sendable {
        case progress(JobProgress)
        case finished(JobOutcome)
    }

    private let writes = DispatchQueue(label: "abconsole.jobs.writes")
    private let reads = DispatchQueue(label: "abconsole.jobs.reads", attributes: .concurrent)
    private let lock = NSLock()
    private var reports: [Report] = []
    private var cancelled: Set<JobID> = []
    private let arrived = DispatchSemaphore(value: 0)

    /// Runs `body` off the calling thread as job `id` (after earlier store writes when `writesStore`).
    func start(_ id: JobID, writesStore: Bool, _ body: @escaping @Sendable (JobControl) -> (JobOutcome, StoreFingerprint?)) {
        let control = JobControl(id: id, runner: self)
        (writesStore ? writes : reads).async {
            let (outcome, fingerprint) = body(control)
            self.post(Report(id: id, event: .finished(outcome), storeFingerprint: fingerprint))
            self.lock.withLock { _ = self.cancelled.remove(id) }
        }
    }

    /// Asks job `id` to stop at its next check.
    func cancel(_ id: JobID) {
        lock.withLock { _ = cancelled.insert(id) }
    }

    /// The reports since the last call, oldest first.
    func drain() -> [Report] {
        lock.withLock {
            defer { reports = [] }
            return reports
        }
    }

    /// Waits up to `seconds` for a report to arrive; returns whether one did.
    func waitForReport(seconds: Double) -> Bool {
        arrived.wait(timeout: .now() + max(0, seconds)) == .success
    }

    fileprivate func isCancelled(_ id: JobID) -> Bool {
        lock.withLock { cancelled.contains(id) }
    }

    fileprivate func post(_ report: Report) {
        lock.withLock { reports.append(report) }
        arrived.signal()
    }
}

/// What a running job sees of the runner: whether it was asked to stop, and a way to report progress.
struct JobControl: Sendable {
    let id: JobID
    fileprivate let runner: JobRunner

    /// Whether `Esc` asked the job to stop; a job checks it wherever it can still stop cleanly.
    var isCancelled: Bool { runner.isCancelled(id) }

    /// Tells the console how far the job has got.
    func report(_ progress: JobProgress) {
        runner.post(JobRunner.Report(id: id, event: .progress(progress)))
    }
}
