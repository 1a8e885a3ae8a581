import ExperimentClient
import Foundation
import Testing
@testable import client_example

/// `client-example`'s reporter hears the client from every thread a report is made on.
@Suite struct ExampleReporterTests {
    /// Threads reporting lost exposures at once: every one is counted and every line written once.
    @Test func concurrentReportsAreAllCounted() {
        let lines = LockedBox(0)
        let reporter = StandardErrorReporter(write: { _ in lines.withLock { $0 += 1 } })
        let client = ExperimentClient()
        let threads = 8, reportsEach = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<reportsEach {
                let report: ClientReport = index % 4 == 3 ? .keyNotFound(key: "k\(thread)")
                    : .exposureNotRecorded(sink: "exposures.jsonl", reason: "disk full")
                reporter.experimentClient(client, didReport: report)
            }
        }
        #expect(reporter.lostExposures == threads * reportsEach * 3 / 4)
        #expect(lines.current == threads * reportsEach)
    }
}
