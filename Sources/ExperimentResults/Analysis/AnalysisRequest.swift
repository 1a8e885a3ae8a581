import ExperimentCore

/// Everything one analysis needs: the experiment, its window, the logs and the options of `results`.
package struct AnalysisRequest: Equatable, Sendable {
    package var experiment: Experiment
    package var window: ResultsWindow
    /// The exposures logs: files, or directories of `exposures-*` logs (`EventSources`), read in this order.
    package var exposuresPaths: [String]
    /// The conversions logs: files, or directories of `conversions-*` logs, read in this order.
    package var conversionsPaths: [String]
    /// Only these metrics, in this order (empty: every metric in the conversions, by name).
    package var metrics: [String]
    /// With `--conversion-window HOURS`: conversions count only up to first exposure + this (nanoseconds).
    package var conversionWindow: Int64?
    /// With `--cuped`: each subject's covariate sums the metric over [first exposure − lookback, first exposure) (nanoseconds).
    package var lookback: Int64?

    package init(experiment: Experiment, window: ResultsWindow, exposuresPath: String, conversionsPath: String,
                metrics: [String] = [], conversionWindow: Int64? = nil, lookback: Int64? = nil) {
        self.init(experiment: experiment, window: window, exposuresPaths: [exposuresPath], conversionsPaths: [conversionsPath],
                  metrics: metrics, conversionWindow: conversionWindow, lookback: lookback)
    }

    package init(experiment: Experiment, window: ResultsWindow, exposuresPaths: [String], conversionsPaths: [String],
                metrics: [String] = [], conversionWindow: Int64? = nil, lookback: Int64? = nil) {
        self.experiment = experiment
        self.window = window
        self.exposuresPaths = exposuresPaths
        self.conversionsPaths = conversionsPaths
        self.metrics = metrics
        self.conversionWindow = conversionWindow
        self.lookback = lookback
    }

    /// The one exposures log (or directory) when a single one is given.
    package var exposuresPath: String {
        get { exposuresPaths.first ?? "" }
        set { exposuresPaths = [newValue] }
    }

    /// The one conversions log (or directory) when a single one is given.
    package var conversionsPath: String {
        get { conversionsPaths.first ?? "" }
        set { conversionsPaths = [newValue] }
    }

    /// The longest conversion window: as many whole hours as 64 bits of nanoseconds hold (about 292 years).
    package static let maxConversionWindowHours = 2_562_047.0

    /// Hours as nanoseconds (for `--conversion-window`); nil past `maxConversionWindowHours` or not finite.
    package static func nanos(hours: Double) -> Int64? {
        guard hours.isFinite, abs(hours) <= maxConversionWindowHours else { return nil }
        return Int64(exactly: (hours * 3_600e9).rounded())
    }

    /// CUPED's default lookback (SPEC §12), in days.
    package static let defaultLookbackDays = 14.0
}
