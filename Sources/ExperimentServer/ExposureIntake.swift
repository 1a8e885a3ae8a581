import ExperimentCore
import ExperimentResults
import ResultsReading
import ExperimentStore
import Foundation
import HTTPServer

/// `POST /v1/exposures` and `/v1/conversions` (SPEC §13): rows checked against the live store by the
/// rules `results` reads them with, the valid ones appended whole to the UTC day's log in `directory`.
///
/// Thread-safe: posters in any number of threads (or processes) append one batch at a time under the
/// file's lock, and an answer is given only once its rows are on disk (`fsync`).
package struct ExposureIntake: Sendable {
    /// Which log a post feeds.
    package enum Kind: Sendable {
        case exposures, conversions
    }

    let directory: URL
    /// The live store's rules for rows.
    let store: @Sendable () -> ExposureRules?
    /// The time of receipt, which names the day's file.
    let now: @Sendable () -> Date

    /// Rows into `directory`'s day files, checked against `store()` (nil: no good store loaded yet) at
    /// each post; `now` gives the time of receipt.
    package init(directory: URL, store: @escaping @Sendable () -> ExposureRules?, now: @escaping @Sendable () -> Date = { Date() }) {
        self.directory = directory
        self.store = store
        self.now = now
    }

    /// The answer to one post of `kind`: `200 {"accepted","rejected"}`, `400` for a body that holds no
    /// rows, `503` before a good store has loaded, `500` when the rows could not be written (none kept).
    package func accept(_ kind: Kind, body: Data) -> HTTPResponse {
        guard let rules = store() else {
            return JSONAnswer.error(503, "no good store has loaded yet: rows are taken once one has (try again)", code: "GENERAL")
        }
        let lines: [[UInt8]]
        switch PostedRows.lines(body) {
        case .success(let rows): lines = rows
        case .failure(let error): return JSONAnswer.error(400, error.reason, code: "PARSE_ERROR")
        }
        var accepted: [[UInt8]] = []
        var rejected: [IntakeAnswer.Rejection] = []
        for (index, verdict) in EventRowCheck.check(lines, as: kind.rows).enumerated() {
            if let reason = Self.refusal(verdict, in: rules) {
                rejected.append(.init(index: index, reason: reason))
            } else {
                accepted.append(lines[index])
            }
        }
        if !accepted.isEmpty {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(accepted.reduce(0) { $0 + $1.count + 1 })
            for line in accepted {
                bytes += line
                bytes.append(0x0A)
            }
            let path = directory.appendingPathComponent(ExposureDayFile.name(kind, receivedAt: now())).path
            do {
                try bytes.withUnsafeBufferPointer { buffer throws(FileSystem.Failure) in try FileSystem.appendDurably(path, buffer) }
            } catch {
                return JSONAnswer.error(500, "\(path): the rows could not be written, none was kept: \(error.reason)", code: "GENERAL")
            }
        }
        return IntakeAnswer.accepted(accepted.count, rejected: rejected)
    }

    /// Why a row that `results` would read is still refused: an experiment or variant the store does
    /// not have, or an experiment not running at receipt (its answers are not exposures, SPEC §8).
    private static func refusal(_ verdict: EventRowCheck.Verdict, in store: ExposureRules) -> String? {
        switch verdict {
        case .conversion:
            return nil
        case .refused(let reason):
            return reason
        case .exposure(let key, let variant):
            guard let experiment = store.experiments[key] else { return "field `experiment`: no experiment `\(key)` in the store" }
            guard experiment.variants.contains(variant) else {
                return "field `variant`: experiment `\(key)` has no variant `\(variant)` (it has: \(experiment.variants.joined(separator: ", ")))"
            }
            guard experiment.status == .running else {
                return "field `experiment`: experiment `\(key)` is \(experiment.status.rawValue), not running: its answers are not exposures"
            }
            return nil
        }
    }
}

extension ExposureIntake.Kind {
    /// The rules its rows are read by.
    var rows: EventRowCheck.Kind {
        switch self {
        case .exposures: .exposures
        case .conversions: .conversions
        }
    }
}
