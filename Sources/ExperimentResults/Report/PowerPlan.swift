/// How much longer an experiment must run (SPEC §12 "Power and duration"): per non-control variant,
/// its power now to detect a relative effect `mde` on one metric, and the whole days until the power reaches a target.
public struct PowerPlan: Equatable, Sendable {
    /// GrowthBook's and SPEC §12's defaults: a 5 % relative effect, 80 % power.
    public static let defaultEffect = 0.05
    public static let defaultPower = 0.8

    public struct Row: Equatable, Sendable {
        public var name: String
        /// Analysed subjects of the variant now.
        public var subjects: Int
        /// The variant's subjects per day so far (subjects / days elapsed in the window).
        public var subjectsPerDay: Double
        /// The power now; nil when there is nothing to estimate it from (no control mean or variance).
        public var power: Double?
        /// Whole days still needed (0: reached); nil when not within 365 days.
        public var daysRemaining: Int?
    }

    public var metric: String
    public var type: MetricType
    public var mde: Double
    public var target: Double
    /// Days elapsed in the window (a real number).
    public var days: Double
    public var rows: [Row]

    /// The plan for `metric` of `analysis`; nil when the analysis has no such metric.
    public init?(_ analysis: Analysis, metric name: String, mde: Double = defaultEffect, target: Double = defaultPower) {
        guard let metric = analysis.metrics.first(where: { $0.name == name }),
              let controlIndex = analysis.variants.firstIndex(of: analysis.control) else { return nil }
        let days = Double(analysis.window.to - analysis.window.from) / 86_400e9
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

    /// A draft's plan for a proportion metric: subjects per variant and whole days at `dailySubjects`
    /// split evenly over `variants`; nil when no sample size reaches the target.
    public static func draft(dailySubjects: Double, baseline: Double, variants: Int, mde: Double = defaultEffect,
                             target: Double = defaultPower) -> (subjectsPerVariant: Int, days: Int)? {
        guard let n = Statistics.subjectsPerVariant(baseline: baseline, mde: mde, target: target) else { return nil }
        let perVariantPerDay = dailySubjects / Double(variants)
        return (n, Int((Double(n) / perVariantPerDay).rounded(.up)))
    }
}
