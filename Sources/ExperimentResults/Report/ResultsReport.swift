import ExperimentCore

/// The results of one experiment: the analysis, each variant compared with the control, the sample-ratio verdict and warnings.
///
/// Everything a front shows (the `results` command, the console screen, the resolve form's evidence).
package struct ResultsReport: Equatable, Sendable {
    /// One variant of one metric: its totals, and against the control the statistics module's comparison.
    package struct VariantResult: Equatable, Sendable {
        package var name: String
        package var isControl: Bool
        package var totals: VariantTotals
        /// The rate (proportion) or mean value per subject; nil with no subjects.
        package var mean: Double?
        /// The comparison with the control (its chance to win is of moving the metric's better way); nil for the control.
        package var comparison: VariantComparison?
        /// What the comparison says for the metric's role (SPEC §12); nil for the control.
        package var verdict: MetricVerdict?
        /// With `--correction`: the p-value adjusted over the family (the verdict reads it); nil outside the family.
        package var pValueAdjusted: Double? = nil
        /// With CUPED: θ of this comparison and the adjusted means (this variant's, the control's) its lift is
        /// made of; nil for the control and without covariates.
        package var adjusted: AdjustedMeans? = nil

        // The comparison's numbers, read through (nil for the control and without an estimate).
        package var lift: Double? { comparison?.lift }
        package var interval: Interval? { comparison?.interval }
        package var chanceToWin: Double? { comparison?.chanceToWin }
        package var pValue: Double? { comparison?.pValue }
        /// Why there is no estimate (n < 2, a zero control mean, no variance), from the statistics.
        package var note: String? { comparison?.note }
    }

    /// One metric's variants, the control first as in the experiment's order.
    package struct MetricResult: Equatable, Sendable {
        package var name: String
        package var type: MetricType
        package var variants: [VariantResult]
        /// Goal, guardrail or another metric, as the experiment names it.
        package var role: MetricRole = .other
        /// Which way is better; `chanceToWin` is the chance of moving this way.
        package var direction: MetricDirection = .increase
        /// A guardrail no conversion names at all: its totals are zeros standing in, its type unknown (SPEC §12).
        package var isMissing = false

        /// Whether a guardrail has no data: its variants' verdict is `noData`.
        package var hasNoData: Bool { variants.contains { $0.verdict == .noData } }
    }

    package var analysis: Analysis
    package var engine: StatsEngine
    package var sampleRatio: SampleRatioVerdict
    package var metrics: [MetricResult]
    package var warnings: [ResultsWarning]
    /// The goal and guardrails the experiment names (SPEC §12).
    package var named: ExperimentMetrics
    /// The correction for multiple comparisons applied (`corrected(by:)`); nil for none.
    package var correction: Correction? = nil

    /// Compares every variant with the control under `engine`; the metrics `named` come first (goal,
    /// then guardrails) with a verdict for their role, and `chanceToWin` is direction-aware.
    package init(_ analysis: Analysis, engine: StatsEngine, named: ExperimentMetrics = .none) {
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
        let read = metrics
        metrics += named.guardrails.filter { guardrail in !read.contains { $0.name == guardrail.metric } }
            .map { Self.missing($0, analysis, controlIndex: controlIndex) }
        metrics = MetricRole.ordered(metrics.map(Self.withoutData), named: named)
        var analysis = analysis
        let missing = analysis.missingMetrics
        let ordered = metrics
        analysis.missingMetrics += named.named.map(\.metric).filter { name in
            !missing.contains(name) && !ordered.contains { $0.name == name }
        }
        warnings = ResultsWarnings.all(analysis, sampleRatio, guardrailsWithoutData: metrics.filter(\.hasNoData).map(\.name))
    }

    /// A guardrail no conversion names: every variant's analysed subjects with nothing converted, verdict *no data*.
    private static func missing(_ guardrail: NamedMetric, _ analysis: Analysis, controlIndex: Int) -> MetricResult {
        let variants = analysis.variants.indices.map { index in
            let subjects = analysis.variantSubjects.indices.contains(index) ? analysis.variantSubjects[index] : 0
            let statistics = (try? GroupStatistics(subjects: subjects, sum: 0, sumSquares: 0)) ?? .empty
            return VariantResult(name: analysis.variants[index], isControl: index == controlIndex,
                                 totals: VariantTotals(statistics: statistics), mean: nil)
        }
        return MetricResult(name: guardrail.metric, type: .proportion, variants: variants, role: .guardrail,
                            direction: guardrail.direction, isMissing: true)
    }

    /// A guardrail without a counted conversion of a non-zero value in any variant (or named by none)
    /// has no data: its variants' verdict says so rather than *ok* (SPEC §12).
    private static func withoutData(_ metric: MetricResult) -> MetricResult {
        guard metric.role == .guardrail, metric.isMissing || metric.variants.allSatisfy({ $0.totals.statistics.sumSquares == 0 }) else { return metric }
        var metric = metric
        for index in metric.variants.indices where !metric.variants[index].isControl { metric.variants[index].verdict = .noData }
        return metric
    }

    /// The same analysis under another engine (the console's `b`/`f`).
    package func with(engine: StatsEngine) -> ResultsReport { ResultsReport(analysis, engine: engine, named: named) }
}

extension ResultsReport.VariantResult {
    init(name: String, isControl: Bool, totals: VariantTotals, mean: Double?) {
        self.init(name: name, isControl: isControl, totals: totals, mean: mean, comparison: nil, verdict: nil)
    }
}
