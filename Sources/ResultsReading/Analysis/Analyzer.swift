import ExperimentResults

import ExperimentStats

/// Runs the analysis of SPEC §8 over the two logs: exposures into subjects, conversions into per-variant totals.
package enum Analyzer {
    /// Reads both logs (exposures first) and totals each metric per variant.
    ///
    /// `progress` counts rows and can cancel (the error is then `.cancelled`). `parallelism` says how
    /// many threads parse the logs; the analysis is the same whatever it says.
    package static func analyze(_ request: AnalysisRequest, progress: ReadProgress? = nil,
                               parallelism: ReadParallelism) throws(EventError) -> Analysis {
        let exposures = try EventSources.files(request.exposuresPaths, prefix: EventSources.exposuresPrefix)
        let conversions = try EventSources.files(request.conversionsPaths, prefix: EventSources.conversionsPrefix)
        // Every file must exist before minutes go into reading the first.
        for path in exposures + conversions {
            _ = try EventLog(path: path, fields: [], required: [])
            try LineReader(path: path).check()
        }
        var notes: [String] = []
        if exposures.isEmpty { notes.append(EventSources.emptyNote(request.exposuresPaths, prefix: EventSources.exposuresPrefix)) }
        if conversions.isEmpty { notes.append(EventSources.emptyNote(request.conversionsPaths, prefix: EventSources.conversionsPrefix)) }
        let states = try ExposurePass(request: request).run(exposures, progress: progress, notes: &notes, parallelism: parallelism)
        let whitelisted = states.removeWhitelisted(request.experiment.whitelist.values.lazy.map(\.subject))
        let metrics = try ConversionPass(request: request).run(conversions, states, progress: progress, notes: &notes, parallelism: parallelism)
        var analysis = try total(request, states, metrics, files: conversions, whitelisted: whitelisted, rowsRead: progress?.rows ?? 0)
        analysis.readNotes = notes
        return analysis
    }

    private static func total(_ request: AnalysisRequest, _ states: SubjectStates, _ read: [ConversionPass.Metric], files: [String],
                              whitelisted: Int, rowsRead: Int) throws(EventError) -> Analysis {
        let experiment = request.experiment
        let variantCount = experiment.variants.count
        var subjectsPerVariant = [Int](repeating: 0, count: variantCount)
        var variantOf = [Int16](repeating: -1, count: states.table.count)
        states.table.forEachSubject { index, variant in
            variantOf[index] = variant
            if variant >= 0 { subjectsPerVariant[Int(variant)] += 1 }
        }
        let ordered = orderedMetrics(read, request.metrics)
        var metrics: [MetricTotals] = []
        for metric in ordered {
            let type: MetricType = metric.hasValues ? .mean : .proportion
            let variants = try totals(of: metric, type: type, variantOf: variantOf, subjects: subjectsPerVariant, request: request,
                                      file: files.indices.contains(metric.lastFile) ? files[metric.lastFile] : request.conversionsPath)
            metrics.append(MetricTotals(name: String(decoding: metric.name, as: UTF8.self), type: type, variants: variants))
        }
        let seen = Set(read.map { String(decoding: $0.name, as: UTF8.self) })
        let subjects = SubjectCounts(exposed: states.table.count, analysed: subjectsPerVariant.reduce(0, +),
                                     multipleVariants: states.multipleCount, whitelisted: whitelisted,
                                     unknownVariantRows: states.unknownVariantRows)
        var analysis = Analysis(experiment: experiment.key, variants: experiment.variants.map(\.name), control: experiment.control,
                                window: request.window, subjects: subjects, variantSubjects: subjectsPerVariant, metrics: metrics,
                                missingMetrics: request.metrics.filter { !seen.contains($0) }, rowsRead: rowsRead, lastExposure: states.lastExposure)
        analysis.lookback = request.lookback
        return analysis
    }

    /// Each variant's totals of one metric (`file`: the log of its last counted conversion), in two passes over the stored values: the sums, then (for
    /// a mean) the squared deviations from each variant's mean (subjects without a conversion count as 0).
    /// With a lookback (CUPED), also the covariate sums of SPEC §12 from the values before each first exposure.
    /// Sums past the largest number, or that no sample can have, are the conversion log's error.
    private static func totals(of metric: ConversionPass.Metric, type: MetricType, variantOf: [Int16], subjects: [Int],
                               request: AnalysisRequest, file: String) throws(EventError) -> [VariantTotals] {
        let cuped = request.lookback != nil
        let count = subjects.count
        var stored = [Int](repeating: 0, count: count)
        var sums = [Double](repeating: 0, count: count)
        var squares = [Double](repeating: 0, count: count)
        let value: (Double) -> Double = type == .proportion ? { $0 > 0 ? 1 : 0 } : { $0 }
        metric.perSubject.forEach { index, raw in
            let variant = Int(variantOf[index])
            guard variant >= 0 else { return }
            let x = value(raw)
            stored[variant] += 1
            sums[variant] += x
            squares[variant] += x * x
        }
        let means = (0..<count).map { subjects[$0] > 0 ? sums[$0] / Double(subjects[$0]) : 0 }
        var deviations = [Double](repeating: 0, count: count)
        if type == .mean { metric.perSubject.forEach { index, raw in
            let variant = Int(variantOf[index])
            guard variant >= 0 else { return }
            let d = value(raw) - means[variant]
            deviations[variant] += d * d
        } }
        var covariates = [CovariateTotals](repeating: CovariateTotals(sum: 0, sumSquares: 0, crossSum: 0), count: count)
        if cuped { metric.preSubject.forEach { index, raw in
            let variant = Int(variantOf[index])
            guard variant >= 0 else { return }
            let x = value(raw)
            covariates[variant].sum += x
            covariates[variant].sumSquares += x * x
            covariates[variant].crossSum += x * value(metric.perSubject.value(at: index))
        } }
        var totals: [VariantTotals] = []
        for v in 0..<count {
            let zeros = Double(subjects[v] - stored[v])
            let squaredDeviations = type == .mean ? deviations[v] + zeros * means[v] * means[v] : nil
            let covariate = cuped ? covariates[v] : nil
            let name = "metric `\(String(decoding: metric.name, as: UTF8.self))` in variant `\(request.experiment.variants[v].name)`"
            guard sums[v].isFinite, squares[v].isFinite, (squaredDeviations ?? 0).isFinite,
                  covariate.map({ $0.sum.isFinite && $0.sumSquares.isFinite && $0.crossSum.isFinite }) ?? true else {
                throw .malformed(file: file, line: metric.lastLine, field: "value",
                                 reason: "the values of \(name) add up past the largest number (about 1.8e308)")
            }
            do throws(StatisticsError) {
                let statistics = try GroupStatistics(subjects: subjects[v], sum: sums[v], sumSquares: squares[v], squaredDeviations: squaredDeviations)
                totals.append(VariantTotals(statistics: statistics, covariate: covariate))
            } catch {
                throw .malformed(file: file, line: metric.lastLine, field: "value",
                                 reason: "the values of \(name) describe no sample: \(error.message)")
            }
        }
        return totals
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
