import ExperimentCore
import Foundation

/// The time span rows are read in, and the weights subjects were bucketed with during it (SPEC §8 "Window").
public struct ResultsWindow: Equatable, Sendable {
    /// Inclusive bounds, nanoseconds since 1970.
    public var from: Int64
    public var to: Int64
    /// Bucket counts per variant name at the window's start (the phase's weights).
    public var weights: [String: Int]
    /// Whether a ramp changed the weights strictly inside the window (the sample-ratio check does not apply).
    public var weightsChangedInside: Bool

    public init(from: Int64, to: Int64, weights: [String: Int], weightsChangedInside: Bool) {
        self.from = from
        self.to = to
        self.weights = weights
        self.weightsChangedInside = weightsChangedInside
    }

    /// The current phase of `experiment` (latest ramp or re-salt, else its first start) to its resolve or `now`;
    /// `from`/`to` (nanoseconds) override either end.
    public static func resolve(_ experiment: Experiment, history: [HistoryEntry], now: Date, from: Int64? = nil, to: Int64? = nil) -> ResultsWindow {
        let entries = history.filter { $0.experiment == experiment.key }
        let phaseStart = entries.last { $0.action == .ramp || $0.action == .resalt }?.at
            ?? entries.first { $0.action == .start }?.at
            ?? experiment.createdAt
        let phaseEnd = experiment.status == .resolved ? (entries.last { $0.action == .resolve }?.at ?? now) : now
        let start = from ?? nanos(phaseStart)
        let end = to ?? nanos(phaseEnd)
        let ramps = entries.filter { $0.action == .ramp }
        let changedInside = ramps.contains { nanos($0.at) > start && nanos($0.at) <= end }
        return ResultsWindow(from: start, to: end, weights: weights(at: start, experiment, entries), weightsChangedInside: changedInside)
    }

    /// The weights in force at `instant`: the current ones unless a later ramp changed them, else read back from the history.
    static func weights(at instant: Int64, _ experiment: Experiment, _ entries: [HistoryEntry]) -> [String: Int] {
        let current = Dictionary(experiment.variants.map { ($0.name, $0.weight.buckets) }, uniquingKeysWith: { first, _ in first })
        guard entries.contains(where: { $0.action == .ramp && nanos($0.at) > instant }) else { return current }
        var weights: [String: Int] = [:]
        for entry in entries where nanos(entry.at) <= instant {
            switch entry.action {
            case .create:
                guard let text = entry.after, let parsed = parse(text.split(separator: " ").last.map(String.init) ?? "") else { return current }
                weights = parsed
            case .ramp, .addVariant:
                guard let text = entry.after, let parsed = parse(text) else { return current }
                weights.merge(parsed) { _, new in new }
            default:
                break
            }
        }
        return weights.isEmpty ? current : weights
    }

    /// `name=pct,name=pct` as bucket counts, or nil.
    private static func parse(_ text: String) -> [String: Int]? {
        var result: [String: Int] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, case .success(let weight) = Weight.parse(percent: String(parts[1])) else { return nil }
            result[String(parts[0])] = weight.buckets
        }
        return result.isEmpty ? nil : result
    }

    /// Nanoseconds since 1970 of a date (whole microseconds are exact); a date outside 1677-09-21 –
    /// 2262-04-11 (a clock or a history entry far off) is held at that end, as `EventTime.nanos(seconds:)`.
    public static func nanos(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let fraction = ((date.timeIntervalSince1970 - seconds) * 1e6).rounded() * 1_000
        guard let whole = Int64(exactly: seconds), case (let scaled, false) = whole.multipliedReportingOverflow(by: 1_000_000_000),
              case (let total, false) = scaled.addingReportingOverflow(Int64(fraction)) else {
            return EventTime.nanos(seconds: seconds)
        }
        return total
    }
}
