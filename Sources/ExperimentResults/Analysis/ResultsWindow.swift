import ExperimentCore
import Foundation

/// The time span rows are read in, and the weights subjects were bucketed with during it (SPEC §8 "Window").
package struct ResultsWindow: Equatable, Sendable {
    /// Inclusive bounds, nanoseconds since 1970.
    package var from: Int64
    package var to: Int64
    /// Bucket counts per variant name at the window's start (the phase's weights).
    package var weights: [String: Int]
    /// Whether a ramp changed the weights strictly inside the window (the sample-ratio check does not apply).
    package var weightsChangedInside: Bool
    /// The spans the experiment was paused (a `pause` to the next `start`, or on to the end of time), in
    /// nanoseconds, as the history records them: no traffic flowed then (`plan`'s days of traffic).
    package var paused: [Range<Int64>]

    package init(from: Int64, to: Int64, weights: [String: Int], weightsChangedInside: Bool, paused: [Range<Int64>] = []) {
        self.from = from
        self.to = to
        self.weights = weights
        self.weightsChangedInside = weightsChangedInside
        self.paused = paused
    }

    /// The current phase of `experiment` (latest ramp or re-salt, else its first start) to its resolve or `now`;
    /// `from`/`to` (nanoseconds) override either end. Throws when a history entry the weights are read
    /// back from does not read as its action's words (naming the entry).
    package static func resolve(_ experiment: Experiment, history: [HistoryEntry], now: Date, from: Int64? = nil,
                               to: Int64? = nil) throws(HistoryTextError) -> ResultsWindow {
        let entries = history.filter { $0.experiment == experiment.key }
        let phaseStart = entries.last { $0.action == .ramp || $0.action == .resalt }?.at
            ?? entries.first { $0.action == .start }?.at
            ?? experiment.createdAt
        let phaseEnd = experiment.status == .resolved ? (entries.last { $0.action == .resolve }?.at ?? now) : now
        let start = from ?? nanos(phaseStart)
        let end = to ?? nanos(phaseEnd)
        let ramps = entries.filter { $0.action == .ramp }
        let changedInside = ramps.contains { nanos($0.at) > start && nanos($0.at) <= end }
        return ResultsWindow(from: start, to: end, weights: try weights(at: start, experiment, entries), weightsChangedInside: changedInside,
                             paused: pausedSpans(entries))
    }

    /// Each `pause` to the `start` that resumed it (to `Int64.max` while still paused).
    static func pausedSpans(_ entries: [HistoryEntry]) -> [Range<Int64>] {
        var spans: [Range<Int64>] = []
        var since: Int64?
        for entry in entries {
            switch entry.action {
            case .pause where since == nil: since = nanos(entry.at)
            case .start, .resolve:
                if let start = since { spans.append(start..<max(start, nanos(entry.at))) }
                since = nil
            default: break
            }
        }
        if let start = since { spans.append(start..<Int64.max) }
        return spans
    }

    /// The weights in force at `instant`: the current ones unless a later ramp changed them, else read back from the history.
    static func weights(at instant: Int64, _ experiment: Experiment, _ entries: [HistoryEntry]) throws(HistoryTextError) -> [String: Int] {
        let current = Dictionary(experiment.variants.map { ($0.name, $0.weight.buckets) }, uniquingKeysWith: { first, _ in first })
        guard entries.contains(where: { $0.action == .ramp && nanos($0.at) > instant }) else { return current }
        var weights: [String: Int] = [:]
        for entry in entries where nanos(entry.at) <= instant {
            switch entry.action {
            case .create:
                weights = [:]
                fallthrough
            case .ramp, .addVariant:
                for named in try HistoryText.weights(of: entry, .after) ?? [] { weights[named.name] = named.weight.buckets }
            default:
                break
            }
        }
        return weights.isEmpty ? current : weights
    }

    /// Nanoseconds since 1970 of a date (whole microseconds are exact); a date outside 1677-09-21 –
    /// 2262-04-11 (a clock or a history entry far off) is held at that end, as `EventTime.nanos(seconds:)`.
    package static func nanos(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let fraction = ((date.timeIntervalSince1970 - seconds) * 1e6).rounded() * 1_000
        guard let whole = Int64(exactly: seconds), case (let scaled, false) = whole.multipliedReportingOverflow(by: 1_000_000_000),
              case (let total, false) = scaled.addingReportingOverflow(Int64(fraction)) else {
            return EventTime.nanos(seconds: seconds)
        }
        return total
    }
}
