import ExperimentClient
import Foundation

/// Writes the client's reports to stderr and counts the exposures lost.
///
/// The client reports from whichever thread made the report (a refresh, a `markSeen` on any thread),
/// so the count lives in a `LockedBox`.
final class StandardErrorReporter: ExperimentClientDelegate, Sendable {
    private let lost = LockedBox(0)
    private let write: @Sendable (String) -> Void

    /// `write` takes each report's line (default: standard error, one `write` per line).
    init(write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.write = write
    }

    /// How many exposures the sink could not record.
    var lostExposures: Int { lost.current }

    func experimentClient(_ client: ExperimentClient, didReport report: ClientReport) {
        write("client-example: \(report)\n")
        if case .exposureNotRecorded = report { lost.withLock { $0 += 1 } }
    }
}
