import ExperimentCore
import ExperimentResults

extension AppState {
    /// The job writing the store, if one runs (there is at most one).
    package var storeJob: Job? { jobs.first { $0.work.writesStore } }

    /// Starts `work` as a job and returns the effect that runs it off the render loop.
    ///
    /// A store write closes the overlay that asked (kept in the job, to reopen if the job fails or
    /// is given up). Reading results replaces the results held, and stops an older read still running.
    mutating func startJob(_ work: Work) -> [Effect] {
        if work.writesStore, let running = storeJob {
            message = .error("still \(running.title); wait for it, or press Esc to give up")
            return []
        }
        let id = JobID(nextJobID)
        nextJobID += 1
        var effects: [Effect] = []
        if work.writesStore {
            jobs.append(Job(id: id, work: work, title: work.title, returnTo: overlay))
            overlay = nil
            message = nil
        } else {
            if case .readResults(let key) = work {
                for index in jobs.indices where jobs[index].work.readsResults && !jobs[index].isGivingUp {
                    jobs[index].isGivingUp = true
                    effects.append(.cancel(jobs[index].id))
                }
                results = ResultsState(experimentKey: key, job: id, engine: results?.engine ?? .bayesian)
            }
            jobs.append(Job(id: id, work: work, title: work.title))
        }
        return effects + [.start(id, work)]
    }

    /// `Esc` while a job runs: asks job `id` (by default the newest one not yet asked) to stop.
    mutating func giveUpJob(_ id: JobID? = nil) -> [Effect] {
        let found = id.flatMap { id in jobs.firstIndex { $0.id == id && !$0.isGivingUp } } ?? (id == nil ? jobs.lastIndex { !$0.isGivingUp } : nil)
        guard let index = found else { return [] }
        jobs[index].isGivingUp = true
        if jobs[index].work.readsResults { stopLoadingResults(jobs[index].id) }
        return [.cancel(jobs[index].id)]
    }

    /// Records how far job `id` has got.
    mutating func recordProgress(_ progress: JobProgress, of id: JobID) {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        jobs[index].progress = progress
        if case .read(let rows, let elapsed) = progress { receiveResults(id, .loading(rows: rows, elapsed: elapsed)) }
    }

    /// Applies the outcome of job `id`: the saved store, the failure with the form reopened, or the results read.
    ///
    /// A save that had taken the lock before `Esc` still finishes; its outcome is applied like any
    /// other, so the screen never claims a change was dropped when it was saved.
    mutating func finishJob(_ id: JobID, _ outcome: JobOutcome, rows: RowCache) {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        let job = jobs.remove(at: index)
        switch outcome {
        case .saved(let text, let snapshot):
            self.snapshot = snapshot
            message = .info(text)
            repairAfterReload(rows)
            NewExperimentForm.selectCreated(after: job.returnTo, &self, rows: rows)
        case .failed(let text, let snapshot):
            if let snapshot { self.snapshot = snapshot }
            // The form or dialog comes back with the refusal whole inside it (and, below, the fresh numbers).
            reopen(job.returnTo?.reopened(refusedWith: text, self.snapshot))
            message = .error(text)
            repairAfterReload(rows)
        case .cancelled where job.work.readsResults:
            // The results already say "cancelled" when `Esc` asked; a read stopped otherwise (quitting) says it now.
            receiveResults(id, .cancelled(rows: 0))
        case .cancelled:
            reopen(job.returnTo)
            message = .info("gave up: stopped \(job.title) before it changed anything")
        case .resultsRead(let analysis):
            let named = snapshot.experiments[analysis.experiment]?.metrics ?? .none
            receiveResults(id, .loaded(ResultsReport(analysis, engine: results?.engine ?? .bayesian, named: named)))
        case .resultsFailed(let text):
            receiveResults(id, .failed(text))
        }
    }

    /// Opens `overlay` again unless another one was opened meanwhile or its experiment is gone.
    private mutating func reopen(_ returned: Overlay?) {
        guard overlay == nil, let returned else { return }
        if let key = returned.experimentKey, snapshot.experiments[key] == nil { return }
        overlay = returned
    }
}

extension Work {
    /// Whether it reads event logs for the results screen.
    var readsResults: Bool {
        if case .readResults = self { true } else { false }
    }
}
