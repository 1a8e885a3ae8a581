import Foundation
import ResultsReading

extension CommandContext {
    /// How many threads read the event logs: one per active core, or what `ABCONSOLE_THREADS` / `ABCONSOLE_READ_CHUNK` say.
    var readParallelism: ReadParallelism {
        ReadParallelism(environment: environment, cores: ProcessInfo.processInfo.activeProcessorCount)
    }
}
