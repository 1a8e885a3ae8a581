import ExperimentCore

/// The results of one experiment: the analysis, each variant compared with the control, the sample-ratio verdict and warnings.
///
/// Everything a front shows (the `results` command, the console screen, the resolve form's evidence).
public struct ResultsReport: Equatable, Sendable {
    /// One variant of one metric: its totals, and against the control the statistics module's comparison.
    public struct VariantResult: Equatable, Sendable {
        public var name: String
        public var isControl: Bool
        public var totals: VariantTotals
        /// The rate (proportion) or mean value per subject; nil with no subjects.
        public var mean: Double?
        /// The comparison with the control (its chance to win is of moving the metric's better way); nil for the control.
        public var comparison: VariantComparison?
        /// What the comparison says for the metric's role (SPEC §12); nil for the control.
        public var verdict: MetricVerdict?
        /// With `--correction`: the p-value adjusted over the family (the verdict reads it); nil outside the family.
        public var pValueAdjusted: Double? = nil
        /// With CUPED: θ of this comparison and the adjusted means (this variant's, the control's) its lift is
        /// made of; nil for the control and without covariates.
        public var adjusted: AdjustedMeans? = nil

        // The comparison's numbers, read through (nil for the control and without an estimate).
        public var lift: Double? { comparison?.lift }
        public var interval: Interval? { comparison?.interval }
        public var chanceToWin: Double? { comparison?.chanceToWin }
        public var pValue: Double? { comparison?.pValue }
        /// Why there is no estimate (n < 2, a zero control mean, no variance), from the statistics.
        public var note: String? { comparison?.note }
    }

    /// One metric's variants, the control first as in the experiment's order.
    public struct MetricResult: Equatable, Sendable {
        public var name: String
        public var type: MetricType
        public var variants: [VariantResult]
        /// Goal, guardrail or another metric, as the experiment names it.
        public var role: MetricRole = .other
        /// Which way is better; `chanceToWin` is the chance of moving this way.
        public var direction: MetricDirection = .increase
    }

    public var analysis: Analysis
    public var engine: StatsEngine
    public var sampleRatio: SampleRatioVerdict
    public var metrics: [MetricResult]
    public var warnings: [ResultsWarning]
    /// The goal and guardrails the experiment names (SPEC §12).
    public var named: ExperimentMetrics
    /// The correction for multiple comparisons applied (`corrected(by:)`); nil for none.
    public var correction: Correction? = nil

    /// Compares every variant with the control under `engine`; the metrics `named` come first (goal,
    /// then guardrails) with a verdict for their role, and `chanceToWin` is direction-aware.
    public init(_ analysis: Analysis, engine: StatsEngine, named: ExperimentMetrics = .none) {
        self.analysis = analysis
        self.engine = engine
        self.named = named
        sampleRatio = SampleRatioVerdict.check(analysis)
        let controlIndex = analysis.variants.firstIndex(of: analysis.control) ?? 0
        metrics = analysis.metrics.map { metric in
            let role = MetricRole.Assigned(metric: metric.name, named: named)
            let control = metric.variants[controlIndex]
            let variants = analysis.variants.indices.map { index -> VariantResult in
                let totals = metric.variants[index]
                var result = VariantResult(name: analysis.variants[index], isControl: index == controlIndex, totals: totals,
                                           mean: totals.statistics.mean())
                guard index != controlIndex else { return result }
                result.comparison = Statistics.compare(control: control, treatment: totals, type: metric.type, engine: engine)
                    .favouring(lowerIsBetter: role.direction == .decrease)
                result.adjusted = Statistics.adjustedMeans(control: control, treatment: totals, type: metric.type)
                result.verdict = role.verdict(lift: result.lift, chanceToWin: result.chanceToWin, pValue: result.pValue)
                return result
            }
            return MetricResult(name: metric.name, type: metric.type, variants: variants, role: role.role, direction: role.direction)
        }
        let ordered = MetricRole.ordered(metrics, named: named)
        metrics = ordered
        var analysis = analysis
        let missing = analysis.missingMetrics
        analysis.missingMetrics += named.named.map(\.metric).filter { name in
            !missing.contains(name) && !ordered.contains { $0.name == name }
        }
        warnings = ResultsWarnings.all(analysis, sampleRatio)
    }

    /// The same analysis under another engine (the console's `b`/`f`).
    public func with(engine: StatsEngine) -> ResultsReport { ResultsReport(analysis, engine: engine, named: named) }
}

extension ResultsReport.VariantResult {
    init(name: String, isControl: Bool, totals: VariantTotals, mean: Double?) {
        self.init(name: name, isControl: isControl, totals: totals, mean: mean, comparison: nil, verdict: nil)
    }
}
