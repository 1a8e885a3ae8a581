import ExperimentCore
import ExperimentStore

extension AppState {
    /// The job writing the store, if one runs (there is at most one).
    var storeJob: Job? { jobs.first { $0.work.writesStore } }

    /// Starts `work` as a job: the overlay that asked closes (kept in the job, to reopen if the job
    /// fails or is given up) and the returned effect runs the work off the render loop.
    mutating func startJob(_ work: Work) -> [Effect] {
        if work.writesStore, let running = storeJob {
            message = .error("still \(running.title); wait for it, or press Esc to give up")
            return []
        }
        let id = JobID(nextJobID)
        nextJobID += 1
        jobs.append(Job(id: id, work: work, title: work.title, returnTo: overlay))
        overlay = nil
        message = nil
        return [.start(id, work)]
    }

    /// `Esc` while a job runs: asks the newest one not yet asked to stop.
    mutating func giveUpJob() -> [Effect] {
        guard let index = jobs.lastIndex(where: { !$0.isGivingUp }) else { return [] }
        jobs[index].isGivingUp = true
        return [.cancel(jobs[index].id)]
    }

    /// Records how far job `id` has got.
    mutating func recordProgress(_ progress: JobProgress, of id: JobID) {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        jobs[index].progress = progress
    }

    /// Applies the outcome of job `id`: the saved store, or the failure with the form reopened.
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
        case .failed(let text, let isConflict, let snapshot):
            if let snapshot { self.snapshot = snapshot }
            if !isConflict { reopen(job.returnTo) }
            message = .error(text)
            repairAfterReload(rows)
        case .cancelled:
            reopen(job.returnTo)
            message = .info("gave up: stopped \(job.title) before it changed anything")
        }
    }

    /// Opens `overlay` again unless another one was opened meanwhile or its experiment is gone.
    private mutating func reopen(_ returned: Overlay?) {
        guard overlay == nil, let returned else { return }
        if let key = returned.experimentKey, snapshot.experiments[key] == nil { return }
        overlay = returned
    }
}
