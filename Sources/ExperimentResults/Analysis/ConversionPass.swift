/// Reads the conversions log and adds each counted conversion to its subject's per-metric value (SPEC §8 "Metrics").
struct ConversionPass {
    static let fields = ["timestamp", "subject", "metric", "value"]

    let request: AnalysisRequest

    /// A metric as the conversions log describes it.
    struct Metric {
        let name: [UInt8]
        /// Whether any row of this metric (for any subject) carries a value: then it is a mean.
        var hasValues = false
        /// Whether `--metric` asked for it (or no filter was given).
        let wanted: Bool
        /// Each subject's summed counted values; allocated at the first counted conversion.
        var perSubject: [Double] = []
        /// With a lookback (CUPED): each subject's summed values before its first exposure; allocated at the first such row.
        var preSubject: [Double] = []
    }

    /// Reads every row; returns the metrics in the order first seen.
    func run(_ states: SubjectStates, progress: ReadProgress?) throws(EventError) -> [Metric] {
        let log = try EventLog(path: request.conversionsPath, fields: Self.fields, required: [true, true, true, false])
        let values = FieldValues(path: log.path)
        let quoted = log.format == .csv
        let filter = request.metrics.map { Array($0.utf8) }
        let to = request.window.to
        let limit = request.conversionWindow
        let lookback = request.lookback
        var metrics: [Metric] = []
        var last = -1
        let subjectCount = states.table.count
        try log.forEachRow(progress: progress) { (fields, line) throws(EventError) in
            let time = try values.timestamp(fields[0], line: line)
            let subject = try values.text(fields[1], line: line, field: "subject")
            let name = try values.text(fields[2], line: line, field: "metric")
            let value = try values.number(fields[3], line: line, field: "value", quotedAllowed: quoted)
            var metric = last
            if metric < 0 || !ExposurePass.equal(name, metrics[metric].name) {
                metric = metrics.firstIndex { ExposurePass.equal(name, $0.name) } ?? -1
                if metric < 0 {
                    let bytes = Array(name)
                    metrics.append(Metric(name: bytes, wanted: filter.isEmpty || filter.contains(bytes)))
                    metric = metrics.count - 1
                }
                last = metric
            }
            if value != nil { metrics[metric].hasValues = true }
            let table = states.table
            guard metrics[metric].wanted, time <= to, let slot = table.find(subject), table.variant(at: slot) >= 0 else { return }
            let first = table.firstExposure(at: slot)
            guard time >= first else {
                guard let lookback, time >= first - lookback else { return }
                if metrics[metric].preSubject.isEmpty { metrics[metric].preSubject = [Double](repeating: 0, count: subjectCount) }
                metrics[metric].preSubject[table.index(at: slot)] += value ?? 1
                return
            }
            if let limit, time > first + limit { return }
            if metrics[metric].perSubject.isEmpty { metrics[metric].perSubject = [Double](repeating: 0, count: subjectCount) }
            metrics[metric].perSubject[table.index(at: slot)] += value ?? 1
        }
        return metrics
    }
}
