/// Reads the conversions log and adds each counted conversion to its subject's per-metric value (SPEC §8 "Metrics").
struct ConversionPass {
    static let fields = ["timestamp", "subject", "metric", "value"]
    /// Up to this many names, a name is found by comparing bytes (no allocation); past it, by dictionary.
    static let scannedNames = 8

    let request: AnalysisRequest

    /// A metric as the conversions log describes it.
    struct Metric {
        let name: [UInt8]
        /// Whether any row of this metric (for any subject) carries a value: then it is a mean.
        var hasValues = false
        /// Whether `--metric` asked for it (or no filter was given).
        let wanted: Bool
        /// Each converted subject's summed counted values.
        var perSubject = SubjectValues()
        /// The line of the last counted conversion (named when the totals leave the range of a number).
        var lastLine = 0
        /// With a lookback (CUPED): each subject's summed values before its first exposure.
        var preSubject = SubjectValues()
    }

    /// A row as read: its time, subject and metric name (kept in the piece's arena) and value.
    struct Record {
        let time: Int64
        let subject: ByteSpan
        let name: ByteSpan
        let value: Double?
        /// The subject's slot in the subject table (looked up while parsing: the table no longer changes), or -1.
        let slot: Int
    }

    /// Reads every row; returns the metrics in the order first seen (in file order, whatever the threads).
    func run(_ states: SubjectStates, progress: ReadProgress?, notes: inout [String], parallelism: ReadParallelism = .default) throws(EventError) -> [Metric] {
        let log = try EventLog(path: request.conversionsPath, fields: Self.fields, required: [true, true, true, false])
        let values = FieldValues(path: log.path)
        let quoted = log.format == .csv
        let filter = Set(request.metrics.map { Array($0.utf8) })
        let to = request.window.to
        let limit = request.conversionWindow
        let lookback = request.lookback
        var metrics: [Metric] = []
        // Each name is looked up once per run of rows naming it, in a dictionary (never a scan of the names).
        var indexOf: [[UInt8]: Int] = [:]
        var last = -1
        let subjectCount = states.table.count
        let table = states.table
        let note = try log.forEachRecord(progress: progress, partialLastLine: true, parallelism: parallelism, parse: { (fields, line, arena) throws(EventError) -> Record? in
            let time = try values.timestamp(fields[0], line: line)
            let subject = try values.text(fields[1], line: line, field: "subject")
            let name = try values.text(fields[2], line: line, field: "metric")
            let value = try values.number(fields[3], line: line, field: "value", quotedAllowed: quoted)
            return Record(time: time, subject: ByteSpan.store(subject, in: &arena), name: ByteSpan.store(name, in: &arena), value: value,
                          slot: table.find(subject) ?? -1)
        }, apply: { (record, line, arena) throws(EventError) in
            let time = record.time, value = record.value
            let subject = record.subject.bytes(in: arena), name = record.name.bytes(in: arena)
            var metric = last
            if metric < 0 || !ExposurePass.equal(name, metrics[metric].name) {
                // A few names (the usual log) are scanned without allocating; past that, the dictionary.
                if metrics.count <= Self.scannedNames, let known = metrics.firstIndex(where: { ExposurePass.equal(name, $0.name) }) {
                    metric = known
                } else if metrics.count > Self.scannedNames, let known = indexOf[Array(name)] {
                    metric = known
                } else {
                    let bytes = Array(name)
                    metrics.append(Metric(name: bytes, wanted: filter.isEmpty || filter.contains(bytes)))
                    metric = metrics.count - 1
                    indexOf[bytes] = metric
                }
                last = metric
            }
            if value != nil { metrics[metric].hasValues = true }
            let slot = record.slot
            guard metrics[metric].wanted, time <= to, slot >= 0, table.variant(at: slot) >= 0 else { return }
            let first = table.firstExposure(at: slot)
            guard time >= first else {
                // Before the first exposure: CUPED's covariate, within the lookback.
                guard let lookback, case (let start, false) = first.subtractingReportingOverflow(lookback), time >= start else { return }
                let before = metrics[metric].preSubject.add(value ?? 1, at: table.index(at: slot), subjectCount: subjectCount)
                guard before.isFinite else {
                    throw EventError.malformed(file: log.path, line: line, field: "value",
                                               reason: "the values of subject `\(FieldValues.quote(subject))` for metric `\(FieldValues.quote(name))` add up past the largest number (about 1.8e308)")
                }
                return
            }
            // Past the last instant nanoseconds can hold, the window is open-ended.
            if let limit, case (let end, false) = first.addingReportingOverflow(limit), time > end { return }
            let total = metrics[metric].perSubject.add(value ?? 1, at: table.index(at: slot), subjectCount: subjectCount)
            metrics[metric].lastLine = line
            guard total.isFinite else {
                throw EventError.malformed(file: log.path, line: line, field: "value",
                                           reason: "the values of subject `\(FieldValues.quote(subject))` for metric `\(FieldValues.quote(name))` add up past the largest number (about 1.8e308)")
            }
        })
        if let note { notes.append(note) }
        return metrics
    }
}
