import ConsoleUI
import Dispatch
import ExperimentResults
import ResultsReading

/// Performs a `.readResults` job: reads the event logs, reporting rows read and seconds elapsed, and stops on `Esc`.
enum ResultsReader {
    /// How often the rows read are reported (and `Esc` is passed on to the reader).
    private static let interval = DispatchTimeInterval.milliseconds(100)

    /// Reads `request`'s logs on the calling (job) thread, parsing on `parallelism`'s threads; nil `request` means `experiment` is not in the store.
    static func read(_ request: AnalysisRequest?, experiment: String, parallelism: ReadParallelism, _ control: JobControl) -> JobOutcome {
        guard let request else { return .resultsFailed(message: "no experiment `\(experiment)`") }
        let progress = ReadProgress()
        let started = ContinuousClock.now
        // A timer beside the reading reports progress and hands `Esc` on to the reader's checkpoints.
        let queue = DispatchQueue(label: "abconsole.jobs.results-progress")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            if control.isCancelled { progress.cancel() }
            let elapsed = started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            control.report(.read(rows: progress.rows, elapsed: seconds))
        }
        timer.resume()
        defer { queue.sync { timer.cancel() } }
        if control.isCancelled { return .cancelled }
        do {
            return .resultsRead(try Analyzer.analyze(request, progress: progress, parallelism: parallelism))
        } catch .cancelled {
            return .cancelled
        } catch {
            return .resultsFailed(message: error.message)
        }
    }
}
