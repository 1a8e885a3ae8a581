/// The results of one experiment: the analysis, each variant compared with the control, the sample-ratio verdict and warnings.
///
/// Everything a front shows (the `results` command, the console screen, the resolve form's evidence).
public struct ResultsReport: Equatable, Sendable {
    /// One variant of one metric: its totals, and against the control its lift, interval, chance to win or p-value.
    public struct VariantResult: Equatable, Sendable {
        public var name: String
        public var isControl: Bool
        public var totals: VariantTotals
        /// The rate (proportion) or mean value per subject; nil with no subjects.
        public var mean: Double?
        public var lift: Double?
        public var interval: (lower: Double, upper: Double)?
        public var chanceToWin: Double?
        public var pValue: Double?
        /// Why there is no estimate (n < 2, a zero control mean, no variance), from the statistics.
        public var note: String?

        public static func == (lhs: VariantResult, rhs: VariantResult) -> Bool {
            lhs.name == rhs.name && lhs.isControl == rhs.isControl && lhs.totals == rhs.totals && lhs.mean == rhs.mean
                && lhs.lift == rhs.lift && lhs.interval?.lower == rhs.interval?.lower && lhs.interval?.upper == rhs.interval?.upper
                && lhs.chanceToWin == rhs.chanceToWin && lhs.pValue == rhs.pValue && lhs.note == rhs.note
        }
    }

    /// One metric's variants, the control first as in the experiment's order.
    public struct MetricResult: Equatable, Sendable {
        public var name: String
        public var type: MetricType
        public var variants: [VariantResult]
    }

    public var analysis: Analysis
    public var engine: ResultsEngine
    public var sampleRatio: SampleRatioVerdict
    public var metrics: [MetricResult]
    public var warnings: [String]

    /// Compares every variant with the control under `engine`.
    public init(_ analysis: Analysis, engine: ResultsEngine) {
        self.analysis = analysis
        self.engine = engine
        sampleRatio = SampleRatioVerdict.check(analysis)
        let controlIndex = analysis.variants.firstIndex(of: analysis.control) ?? 0
        metrics = analysis.metrics.map { metric in
            let control = metric.variants[controlIndex]
            let variants = analysis.variants.indices.map { index -> VariantResult in
                let totals = metric.variants[index]
                var result = VariantResult(name: analysis.variants[index], isControl: index == controlIndex, totals: totals,
                                           mean: totals.subjects > 0 ? totals.sum / Double(totals.subjects) : nil)
                guard index != controlIndex else { return result }
                let estimate = Statistics.compare(control: control, treatment: totals, type: metric.type, engine: engine)
                result.lift = estimate.lift
                result.interval = estimate.interval
                result.chanceToWin = engine.isBayesian ? estimate.chanceToWin : nil
                result.pValue = engine.isBayesian ? nil : estimate.pValue
                result.note = estimate.note
                return result
            }
            return MetricResult(name: metric.name, type: metric.type, variants: variants)
        }
        warnings = ResultsWarnings.all(analysis, sampleRatio)
    }

    /// The same analysis under another engine (the console's `b`/`f`).
    public func with(engine: ResultsEngine) -> ResultsReport { ResultsReport(analysis, engine: engine) }
}

extension ResultsReport.VariantResult {
    init(name: String, isControl: Bool, totals: VariantTotals, mean: Double?) {
        self.init(name: name, isControl: isControl, totals: totals, mean: mean, lift: nil, interval: nil, chanceToWin: nil, pValue: nil, note: nil)
    }
}
