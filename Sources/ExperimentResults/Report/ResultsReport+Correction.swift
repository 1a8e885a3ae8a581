extension ResultsReport {
    /// Which correction adjusted the p-values, over how many tests.
    package struct Correction: Equatable, Sendable {
        package var method: PValueCorrection
        /// The p-values adjusted together: the family's comparisons that have an estimate.
        package var tests: Int
    }

    /// The report with the p-values of the family adjusted by `method`, and the family's verdicts read
    /// from the adjusted p-values (SPEC §12 "Multiple comparisons"). The family is the goal × the
    /// non-control variants (GrowthBook's); guardrails are never in it. Without a goal, the metrics
    /// shown in its place (every metric that is not a guardrail) form the family. A comparison without an
    /// estimate is no test. Frequentist reports only: a Bayesian one has no p-values and comes back unchanged.
    package func corrected(by method: PValueCorrection) -> ResultsReport {
        guard !engine.isBayesian else { return self }
        var report = self
        let family: MetricRole = named.goal == nil ? .other : .goal
        var slots: [(metric: Int, variant: Int)] = []
        var pValues: [Double] = []
        for (m, metric) in metrics.enumerated() where metric.role == family {
            for (v, variant) in metric.variants.enumerated() where !variant.isControl {
                guard let p = variant.pValue else { continue }
                slots.append((m, v))
                pValues.append(p)
            }
        }
        for (slot, adjusted) in zip(slots, method.adjust(pValues)) {
            let metric = report.metrics[slot.metric]
            var variant = metric.variants[slot.variant]
            variant.pValueAdjusted = adjusted
            variant.verdict = Statistics.verdict(guardrail: false, lift: variant.lift, chanceToWin: nil, pValue: adjusted,
                                                 lowerIsBetter: metric.direction == .decrease)
            report.metrics[slot.metric].variants[slot.variant] = variant
        }
        report.correction = Correction(method: method, tests: pValues.count)
        return report
    }
}
