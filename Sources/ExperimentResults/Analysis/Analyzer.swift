/// Runs the analysis of SPEC §8 over the two logs: exposures into subjects, conversions into per-variant totals.
public enum Analyzer {
    /// Reads both logs (exposures first) and totals each metric per variant.
    ///
    /// `progress` counts rows and can cancel (the error is then `.cancelled`).
    public static func analyze(_ request: AnalysisRequest, progress: ReadProgress? = nil) throws(EventError) -> Analysis {
        // Both files must exist before minutes go into reading the first.
        for path in [request.exposuresPath, request.conversionsPath] {
            _ = try EventLog(path: path, fields: [], required: [])
            guard LineReader(path: path).size() != nil else { throw .missing(file: path) }
        }
        let states = try ExposurePass(request: request).run(progress: progress)
        let whitelisted = states.removeWhitelisted(request.experiment.whitelist.values.lazy.map(\.subject))
        let metrics = try ConversionPass(request: request).run(states, progress: progress)
        return total(request, states, metrics, whitelisted: whitelisted, rowsRead: progress?.rows ?? 0)
    }

    private static func total(_ request: AnalysisRequest, _ states: SubjectStates, _ read: [ConversionPass.Metric],
                              whitelisted: Int, rowsRead: Int) -> Analysis {
        let experiment = request.experiment
        let variantCount = experiment.variants.count
        var subjectsPerVariant = [Int](repeating: 0, count: variantCount)
        states.table.forEachSubject { _, variant in if variant >= 0 { subjectsPerVariant[Int(variant)] += 1 } }
        let ordered = orderedMetrics(read, request.metrics)
        let metrics = ordered.map { metric -> MetricTotals in
            let type: MetricType = metric.hasValues ? .mean : .proportion
            var sums = [Double](repeating: 0, count: variantCount)
            var squares = [Double](repeating: 0, count: variantCount)
            var covariates = [CovariateTotals](repeating: CovariateTotals(sum: 0, sumSquares: 0, crossSum: 0), count: variantCount)
            let cuped = request.lookback != nil
            if !metric.perSubject.isEmpty || (cuped && !metric.preSubject.isEmpty) {
                states.table.forEachSubject { index, variant in
                    guard variant >= 0 else { return }
                    let value = metric.perSubject.isEmpty ? 0 : metric.perSubject[index]
                    let y = type == .proportion ? (value > 0 ? 1.0 : 0.0) : value
                    sums[Int(variant)] += y
                    squares[Int(variant)] += y * y
                    guard cuped, !metric.preSubject.isEmpty else { return }
                    let before = metric.preSubject[index]
                    let x = type == .proportion ? (before > 0 ? 1.0 : 0.0) : before
                    covariates[Int(variant)].sum += x
                    covariates[Int(variant)].sumSquares += x * x
                    covariates[Int(variant)].crossSum += x * y
                }
            }
            return MetricTotals(name: String(decoding: metric.name, as: UTF8.self), type: type,
                                variants: (0..<variantCount).map {
                                    VariantTotals(subjects: subjectsPerVariant[$0], sum: sums[$0], sumSquares: squares[$0],
                                                  covariate: cuped ? covariates[$0] : nil)
                                })
        }
        let seen = Set(read.map { String(decoding: $0.name, as: UTF8.self) })
        let subjects = SubjectCounts(exposed: states.table.count, analysed: subjectsPerVariant.reduce(0, +),
                                     multipleVariants: states.multipleCount, whitelisted: whitelisted,
                                     unknownVariantRows: states.unknownVariantRows)
        return Analysis(experiment: experiment.key, variants: experiment.variants.map(\.name), control: experiment.control,
                        window: request.window, subjects: subjects, variantSubjects: subjectsPerVariant, metrics: metrics,
                        missingMetrics: request.metrics.filter { !seen.contains($0) }, rowsRead: rowsRead, lastExposure: states.lastExposure)
    }

    /// The wanted metrics: in `--metric` order when given, else by name every metric with a counted
    /// conversion among this experiment's analysed subjects (a shared log names other experiments' metrics too).
    private static func orderedMetrics(_ read: [ConversionPass.Metric], _ wanted: [String]) -> [ConversionPass.Metric] {
        let byName = Dictionary(read.map { (String(decoding: $0.name, as: UTF8.self), $0) }, uniquingKeysWith: { first, _ in first })
        if wanted.isEmpty { return byName.keys.sorted().compactMap { byName[$0] }.filter { !$0.perSubject.isEmpty } }
        var seen = Set<String>()
        return wanted.filter { seen.insert($0).inserted }.compactMap { byName[$0] }
    }
}
