import ExperimentResults

/// `results --json`: the SPEC §8 shape, field names fixed; nulls written out, never left away.
struct ResultsJSON: Encodable {
    let report: ResultsReport

    init(_ report: ResultsReport) { self.report = report }

    private enum Keys: String, CodingKey {
        case experiment, engine, sequential, window, subjects, srm, warnings, metrics
        case from, to
        case exposed, analysed, multipleVariants = "multiple_variants", whitelisted, unknownVariantRows = "unknown_variant_rows"
        case status, pValue = "p_value", expected, observed
        case metric, type, variants
        case name, control, sum, sumSquares = "sum_squares", mean, lift, ci, chanceToWin = "chance_to_win", note
        case role, direction, verdict, headline, cuped, lastExposure = "last_exposure"
        case correction, method, tests, pValueAdjusted = "p_value_adjusted"
        case meanUnadjusted = "mean_unadjusted", theta, controlMean = "control_mean"
    }

    private struct Name: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        let analysis = report.analysis
        var root = encoder.container(keyedBy: Keys.self)
        try root.encode(analysis.experiment, forKey: .experiment)
        try root.encode(report.engine.name, forKey: .engine)
        if case .frequentist(let sequential) = report.engine { try root.encode(sequential, forKey: .sequential) } else { try root.encode(false, forKey: .sequential) }
        var window = root.nestedContainer(keyedBy: Keys.self, forKey: .window)
        try window.encode(ResultsFormat.time(analysis.window.from), forKey: .from)
        try window.encode(ResultsFormat.time(analysis.window.to), forKey: .to)
        var subjects = root.nestedContainer(keyedBy: Keys.self, forKey: .subjects)
        try subjects.encode(analysis.subjects.exposed, forKey: .exposed)
        try subjects.encode(analysis.subjects.analysed, forKey: .analysed)
        try subjects.encode(analysis.subjects.multipleVariants, forKey: .multipleVariants)
        try subjects.encode(analysis.subjects.whitelisted, forKey: .whitelisted)
        try subjects.encode(analysis.subjects.unknownVariantRows, forKey: .unknownVariantRows)
        var srm = root.nestedContainer(keyedBy: Keys.self, forKey: .srm)
        try srm.encode(report.sampleRatio.status.rawValue, forKey: .status)
        try srm.encode(report.sampleRatio.pValue, forKey: .pValue)
        var expected = srm.nestedContainer(keyedBy: Name.self, forKey: .expected)
        for entry in report.sampleRatio.expected { try expected.encode(entry.share, forKey: Name(entry.name)) }
        var observed = srm.nestedContainer(keyedBy: Name.self, forKey: .observed)
        for entry in report.sampleRatio.observed { try observed.encode(entry.subjects, forKey: Name(entry.name)) }
        try root.encode(report.warnings.map(\.text), forKey: .warnings)
        try root.encode(DecisionText.headline(report), forKey: .headline)
        try root.encode(analysis.lastExposure.map(ResultsFormat.time), forKey: .lastExposure)
        try root.encode(report.metrics.contains { $0.variants.contains { $0.totals.covariate != nil } }, forKey: .cuped)
        if let correction = report.correction {
            var object = root.nestedContainer(keyedBy: Keys.self, forKey: .correction)
            try object.encode(correction.method.rawValue, forKey: .method)
            try object.encode(correction.tests, forKey: .tests)
        }
        var metrics = root.nestedUnkeyedContainer(forKey: .metrics)
        for metric in report.metrics {
            var object = metrics.nestedContainer(keyedBy: Keys.self)
            try object.encode(metric.name, forKey: .metric)
            try object.encode(metric.isMissing ? nil : metric.type.rawValue, forKey: .type)
            try object.encode(metric.role.rawValue, forKey: .role)
            try object.encode(metric.direction.rawValue, forKey: .direction)
            var variants = object.nestedUnkeyedContainer(forKey: .variants)
            let cuped = metric.variants.contains { $0.totals.covariate != nil }
            // The control's adjusted mean depends on θ: one number when every comparison shares it, else each
            // non-control variant gives it as "control_mean".
            let controls = Set(metric.variants.compactMap { $0.adjusted?.control })
            for variant in metric.variants {
                var item = variants.nestedContainer(keyedBy: Keys.self)
                try item.encode(variant.name, forKey: .name)
                try item.encode(variant.isControl, forKey: .control)
                try item.encode(variant.totals.statistics.subjects, forKey: .subjects)
                try item.encode(variant.totals.statistics.sum, forKey: .sum)
                try item.encode(variant.totals.statistics.sumSquares, forKey: .sumSquares)
                if cuped {
                    try item.encode(variant.isControl ? (controls.count <= 1 ? controls.first ?? variant.mean : nil) : variant.adjusted?.treatment ?? variant.mean,
                                    forKey: .mean)
                    try item.encode(variant.mean, forKey: .meanUnadjusted)
                    if !variant.isControl {
                        try item.encode(variant.adjusted?.theta, forKey: .theta)
                        try item.encode(variant.adjusted?.control, forKey: .controlMean)
                    }
                } else {
                    try item.encode(variant.mean, forKey: .mean)
                }
                try item.encode(variant.lift, forKey: .lift)
                try item.encode(variant.interval.map { [$0.lower, $0.upper] }, forKey: .ci)
                try item.encode(variant.chanceToWin, forKey: .chanceToWin)
                try item.encode(variant.pValue, forKey: .pValue)
                if report.correction != nil { try item.encode(variant.pValueAdjusted, forKey: .pValueAdjusted) }
                try item.encode(variant.note, forKey: .note)
                if !variant.isControl { try item.encode(variant.verdict?.rawValue, forKey: .verdict) }
            }
        }
    }
}
