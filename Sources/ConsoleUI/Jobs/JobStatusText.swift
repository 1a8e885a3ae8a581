/// The status bar's line for a running job: what it does and how far it has got.
enum JobStatusText {
    static func text(_ job: Job) -> String {
        if job.isGivingUp { return "giving up: stopping \(job.title)…" }
        switch job.progress {
        case .running:
            return "\(job.title)…"
        case .waitingForLock(let seconds, let limit):
            return "\(job.title): waiting for another writer's lock, \(seconds) s of \(limit) s"
        case .counted(let done, let total):
            return "\(job.title)… \(total > 0 ? done * 100 / total : 0) %"
        }
    }
}
