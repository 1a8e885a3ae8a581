import ExperimentResults

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
        /// The index, among the files read, of the file of `lastLine`.
        var lastFile = 0
        /// With a lookback (CUPED): each subject's summed values before its first exposure.
        var preSubject = SubjectValues()
    }

    /// A row as read: its time, subject and metric name (kept in the piece's arena) and value, with what
    /// the subject table says of the subject (looked up while parsing: the table no longer changes).
    struct Record {
        let time: Int64
        /// The subject's first exposure (when `index` ≥ 0).
        let first: Int64
        let subject: ByteSpan
        let name: ByteSpan
        let value: Double?
        /// The subject's dense index, or -1 when it is not analysed (never exposed, in several variants, whitelisted).
        let index: Int32
    }

    /// The metrics while they are read: a class, so the per-row closure updates them without a dynamic exclusivity check per row.
    private final class Reading {
        @exclusivity(unchecked) var metrics: [Metric] = []
        // Each name is looked up once per run of rows naming it, in a dictionary (never a scan of the names).
        @exclusivity(unchecked) var indexOf: [[UInt8]: Int] = [:]
        @exclusivity(unchecked) var last = -1
    }

    /// Reads every row of every file; returns the metrics in the order first seen (in the order of
    /// `files` and of each file's lines, whatever the threads).
    func run(_ files: [String], _ states: SubjectStates, progress: ReadProgress?, notes: inout [String],
             parallelism: ReadParallelism) throws(EventError) -> [Metric] {
        let reading = Reading()
        for (index, path) in files.enumerated() {
            try read(path, number: index, states, into: reading, progress: progress, notes: &notes, parallelism: parallelism)
        }
        return reading.metrics
    }

    /// Which of `fields` every row must carry: all but `value`.
    static let required = [true, true, true, false]

    /// A row's time, subject, metric and value, or the error naming its field: the one rule for a
    /// conversion row (`results` reading a log and `serve` taking one in alike).
    @inline(__always)
    static func row(_ fields: UnsafeMutableBufferPointer<FieldSlice>, line: Int, _ values: FieldValues, quoted: Bool) throws(EventError)
        -> (Int64, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, Double?) {
        let time = try values.timestamp(fields[0], line: line)
        let subject = try values.text(fields[1], line: line, field: "subject")
        let name = try values.text(fields[2], line: line, field: "metric")
        let value = try values.number(fields[3], line: line, field: "value", quotedAllowed: quoted)
        return (time, subject, name, value)
    }

    private func read(_ path: String, number file: Int, _ states: SubjectStates, into reading: Reading, progress: ReadProgress?,
                      notes: inout [String], parallelism: ReadParallelism) throws(EventError) {
        let log = try EventLog(path: path, fields: Self.fields, required: Self.required)
        let values = FieldValues(path: log.path)
        let quoted = log.format == .csv
        let filter = Set(request.metrics.map { Array($0.utf8) })
        let to = request.window.to
        let limit = request.conversionWindow
        let lookback = request.lookback
        let subjectCount = states.table.count
        let table = ReadOnlyTable(states.table)
        let note = try log.forEachRecord(progress: progress, partialLastLine: true, parallelism: parallelism, parse: { (fields, line, arena) throws(EventError) -> Record? in
            let (time, subject, name, value) = try Self.row(fields, line: line, values, quoted: quoted)
            var index: Int32 = -1, first: Int64 = 0
            if let slot = table.subjects.find(subject), table.subjects.variant(at: slot) >= 0 {
                index = Int32(truncatingIfNeeded: table.subjects.index(at: slot))
                first = table.subjects.firstExposure(at: slot)
            }
            return Record(time: time, first: first, subject: ByteSpan.store(subject, in: &arena), name: ByteSpan.store(name, in: &arena),
                          value: value, index: index)
        }, apply: { (record, line, arena) throws(EventError) in
            let time = record.time, value = record.value
            let subject = record.subject.bytes(in: arena), name = record.name.bytes(in: arena)
            var metric = reading.last
            if metric < 0 || !ExposurePass.equal(name, reading.metrics[metric].name) {
                // A few names (the usual log) are scanned without allocating; past that, the dictionary.
                if reading.metrics.count <= Self.scannedNames, let known = reading.metrics.firstIndex(where: { ExposurePass.equal(name, $0.name) }) {
                    metric = known
                } else if reading.metrics.count > Self.scannedNames, let known = reading.indexOf[Array(name)] {
                    metric = known
                } else {
                    let bytes = Array(name)
                    reading.metrics.append(Metric(name: bytes, wanted: filter.isEmpty || filter.contains(bytes)))
                    metric = reading.metrics.count - 1
                    reading.indexOf[bytes] = metric
                }
                reading.last = metric
            }
            if value != nil { reading.metrics[metric].hasValues = true }
            let index = Int(record.index)
            guard reading.metrics[metric].wanted, time <= to, index >= 0 else { return }
            let first = record.first
            guard time >= first else {
                // Before the first exposure: CUPED's covariate, within the lookback.
                guard let lookback, case (let start, false) = first.subtractingReportingOverflow(lookback), time >= start else { return }
                let before = reading.metrics[metric].preSubject.add(value ?? 1, at: index, subjectCount: subjectCount)
                guard before.isFinite else {
                    throw EventError.malformed(file: log.path, line: line, field: "value",
                                               reason: "the values of subject `\(FieldValues.quote(subject))` for metric `\(FieldValues.quote(name))` add up past the largest number (about 1.8e308)")
                }
                return
            }
            // Past the last instant nanoseconds can hold, the window is open-ended.
            if let limit, case (let end, false) = first.addingReportingOverflow(limit), time > end { return }
            let total = reading.metrics[metric].perSubject.add(value ?? 1, at: index, subjectCount: subjectCount)
            reading.metrics[metric].lastLine = line
            reading.metrics[metric].lastFile = file
            guard total.isFinite else {
                throw EventError.malformed(file: log.path, line: line, field: "value",
                                           reason: "the values of subject `\(FieldValues.quote(subject))` for metric `\(FieldValues.quote(name))` add up past the largest number (about 1.8e308)")
            }
        })
        if let note { notes.append(note) }
    }
}

/// The exposure pass's subjects as the conversion pass's parsing threads look them up.
/// `@unchecked Sendable`: the conversion pass only reads the table; its one writer, the exposure pass, has ended.
private struct ReadOnlyTable: @unchecked Sendable {
    let subjects: SubjectTable
    init(_ subjects: SubjectTable) { self.subjects = subjects }
}
