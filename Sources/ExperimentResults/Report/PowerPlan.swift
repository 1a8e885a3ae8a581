/// How much longer an experiment must run (SPEC §12 "Power and duration"): per non-control variant,
/// its power now to detect a relative effect `mde` on one metric, and the whole days until the power reaches a target.
package struct PowerPlan: Equatable, Sendable {
    /// GrowthBook's and SPEC §12's defaults: a 5 % relative effect, 80 % power.
    package static let defaultEffect = 0.05
    package static let defaultPower = 0.8
    /// The powers a plan aims for: below one half a true effect is more likely missed than found, so
    /// it plans nothing useful; 1 is never reached.
    package static let powers = 0.5..<1.0
    /// The relative effects a plan takes: above 0, below 1,000 %.
    package static let effects = Double.leastNonzeroMagnitude..<10.0
    /// The longest draft a plan reports, in days (a century): beyond, the traffic is too thin to plan with.
    package static let longestDraftDays = 36_500

    package struct Row: Equatable, Sendable {
        package var name: String
        /// Analysed subjects of the variant now.
        package var subjects: Int
        /// The variant's subjects per day so far (subjects / days of traffic).
        package var subjectsPerDay: Double
        /// The power now; nil when there is nothing to estimate it from (no control mean or variance).
        package var power: Double?
        /// Whole days still needed (0: reached); nil when not within 365 days.
        package var daysRemaining: Int?
    }

    package var metric: String
    package var type: MetricType
    package var mde: Double
    package var target: Double
    /// Days of traffic (a real number): from the window's start to its last exposure (the window's end
    /// from a summary), less the spans the experiment was paused.
    package var days: Double
    package var rows: [Row]

    /// The plan for `metric` of `analysis`; nil when the analysis has no such metric. An effect or a
    /// power outside `effects` or `powers` (NaN included) is refused, as `draft` refuses it.
    package init?(_ analysis: Analysis, metric name: String, mde: Double = defaultEffect, target: Double = defaultPower) throws(PowerPlanError) {
        try Self.check(mde: mde, target: target)
        guard let metric = analysis.metrics.first(where: { $0.name == name }),
              let controlIndex = analysis.variants.firstIndex(of: analysis.control) else { return nil }
        let days = Self.trafficDays(analysis)
        let control = metric.variants[controlIndex]
        let controlStatistics = Statistics.meanAndVariance(control, type: metric.type)
        let controlMean = controlStatistics?.mean, controlVariance = controlStatistics?.variance
        self.metric = name
        type = metric.type
        self.mde = mde
        self.target = target
        self.days = days
        rows = analysis.variants.indices.filter { $0 != controlIndex }.map { index in
            let totals = metric.variants[index]
            let perDay = { (subjects: Int) in days > 0 ? Double(subjects) / days : 0 }
            var row = Row(name: analysis.variants[index], subjects: totals.statistics.subjects, subjectsPerDay: perDay(totals.statistics.subjects))
            guard let controlMean, let controlVariance else { return row }
            let treatmentVariance: Double?
            if metric.type == .proportion {
                let rate = controlMean * (1 + mde)
                treatmentVariance = rate * (1 - rate)
            } else {
                treatmentVariance = Statistics.meanAndVariance(totals, type: .mean)?.variance
            }
            guard let treatmentVariance else { return row }
            row.power = Statistics.power(mde: mde, controlMean: controlMean, controlVariance: controlVariance, treatmentVariance: treatmentVariance,
                                    controlSubjects: Double(control.statistics.subjects), treatmentSubjects: Double(totals.statistics.subjects))
            guard row.power != nil else { return row }
            row.daysRemaining = Statistics.daysRemaining(target: target, mde: mde, controlMean: controlMean, controlVariance: controlVariance,
                                                    treatmentVariance: treatmentVariance,
                                                    controlSubjects: Double(control.statistics.subjects), treatmentSubjects: Double(totals.statistics.subjects),
                                                    controlPerDay: perDay(control.statistics.subjects), treatmentPerDay: row.subjectsPerDay)
            return row
        }
    }

    /// Days of traffic in `analysis`: the window's start to its last exposure (its end without exposure
    /// times), less the paused spans inside; a window that runs on after the traffic stopped does not dilute the rate.
    package static func trafficDays(_ analysis: Analysis) -> Double {
        let window = analysis.window
        let end = min(analysis.lastExposure ?? window.to, window.to)
        guard end > window.from else { return 0 }
        let paused = window.paused.reduce(0.0) { total, span in
            let from = max(span.lowerBound, window.from), to = min(span.upperBound, end)
            return total + (to > from ? Double(to - from) : 0)
        }
        return max(0, Double(end - window.from) - paused) / 86_400e9
    }

    /// A draft's plan for a proportion metric: subjects per variant and whole days at `dailySubjects`
    /// split evenly over `variants`; refused when an input cannot be planned with or no sample size reaches the target.
    package static func draft(dailySubjects: Double, baseline: Double, variants: Int, mde: Double = defaultEffect,
                             target: Double = defaultPower) throws(PowerPlanError) -> Draft {
        guard dailySubjects.isFinite, dailySubjects > 0 else { throw .noTraffic }
        guard variants >= 2 else { throw .tooFewVariants(variants) }
        guard baseline > 0, baseline < 1 else { throw .baseline(baseline) }
        try check(mde: mde, target: target)
        guard baseline * (1 + mde) < 1 else { throw .pastCertainty(baseline: baseline, mde: mde) }
        guard let n = Statistics.subjectsPerVariant(baseline: baseline, mde: mde, target: target) else { throw .unreachable(target: target) }
        let days = (Double(n) / (dailySubjects / Double(variants))).rounded(.up)
        guard days <= Double(longestDraftDays) else { throw .tooLong(subjectsPerVariant: n) }
        return Draft(subjectsPerVariant: n, days: Int(days))
    }

    /// Refuses an effect outside `effects` or a power outside `powers`: the one check of both inputs.
    private static func check(mde: Double, target: Double) throws(PowerPlanError) {
        guard effects.contains(mde) else { throw .effect(mde) }
        guard powers.contains(target) else { throw .power(target) }
    }

    /// A draft's sample size and duration.
    package struct Draft: Equatable, Sendable {
        package var subjectsPerVariant: Int
        package var days: Int
    }
}

/// Why a draft cannot be planned, in words a person can act on.
package enum PowerPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    case noTraffic
    case tooFewVariants(Int)
    case baseline(Double)
    case effect(Double)
    case pastCertainty(baseline: Double, mde: Double)
    case power(Double)
    case unreachable(target: Double)
    case tooLong(subjectsPerVariant: Int)

    package var description: String {
        switch self {
        case .noTraffic: "a draft needs some subjects a day (above 0) to plan with"
        case .tooFewVariants(let count): "a draft needs at least 2 variants to compare, not \(count)"
        case .baseline(let rate): "the baseline must be a conversion rate between 0 and 1 (exclusive), not \(rate)"
        case .effect(let mde): "the effect must be above 0 % and below 1,000 %, not \(DecisionText.effectWords(mde))"
        case .pastCertainty(let baseline, let mde):
            "a \(DecisionText.effectWords(mde)) effect on a baseline of \(ResultsFormat.percent(baseline, digits: 1)) would pass 100 %; lower the effect"
        case .power(let target): "the power must be at least 50 % and below 100 %, not \(ResultsFormat.percent(target, digits: 1))"
        case .unreachable(let target): "no sample size up to 10¹² subjects reaches \(ResultsFormat.percent(target, digits: 0)) power for this effect"
        case .tooLong(let n):
            "\(ResultsFormat.count(n)) subjects per variant would take more than \(ResultsFormat.count(PowerPlan.longestDraftDays)) days at this traffic"
        }
    }
}
