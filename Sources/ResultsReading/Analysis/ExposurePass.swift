import ExperimentCore

import ExperimentResults

/// Reads the exposures log into per-subject states (SPEC §8 "Per subject").
struct ExposurePass {
    static let fields = ExposureField.allCases.map(\.rawValue)

    let request: AnalysisRequest

    /// What a row of this experiment inside the window says: its subject (kept in the piece's arena, with
    /// its table key, computed while parsing), variant index (-1: unknown) and time.
    struct Record {
        let time: Int64
        let subject: ByteSpan
        let key: SubjectTable.Key
        let variant: Int16
    }

    /// Every row of every file is checked; rows of this experiment inside the window shape the subjects
    /// (in the order of `files`, and of each file's lines, whatever the threads).
    func run(_ files: [String], progress: ReadProgress?, notes: inout [String], parallelism: ReadParallelism) throws(EventError) -> SubjectStates {
        let states = SubjectStates()
        for path in files { try read(path, into: states, progress: progress, notes: &notes, parallelism: parallelism) }
        return states
    }

    private func read(_ path: String, into states: SubjectStates, progress: ReadProgress?, notes: inout [String],
                      parallelism: ReadParallelism) throws(EventError) {
        let log = try EventLog(path: path, fields: Self.fields, required: Self.required)
        let values = FieldValues(path: log.path)
        let key = Array(request.experiment.key.utf8)
        let names = request.experiment.variants.map { Array($0.name.utf8) }
        let from = request.window.from, to = request.window.to
        let table = states.table
        let unknown = Record(time: 0, subject: ByteSpan(offset: 0, count: 0), key: SubjectTable.Key(UnsafeBufferPointer(start: nil, count: 0)), variant: -1)
        let note = try log.forEachRecord(progress: progress, partialLastLine: true, parallelism: parallelism, parse: { (fields, line, arena) throws(EventError) -> Record? in
            let (time, experiment, variant, subject) = try Self.row(fields, line: line, values)
            guard Self.equal(experiment, key), time >= from, time <= to else { return nil }
            guard let index = Self.index(of: variant, in: names) else { return unknown }
            return Record(time: time, subject: ByteSpan.store(subject, in: &arena), key: SubjectTable.Key(subject), variant: Int16(index))
        }, ahead: { record in
            // The table's slots are far bigger than the caches: reading a later row's slot now overlaps the misses.
            if record.variant >= 0 { table.touch(record.key) }
        }, apply: { (record, _, arena) throws(EventError) in
            guard record.variant >= 0 else {
                states.unknownVariantRows += 1
                return
            }
            states.expose(record.subject.bytes(in: arena), key: record.key, variant: record.variant, at: record.time)
        })
        if let note { notes.append(note) }
    }

    /// Which of `fields` every row must carry: all of them.
    static let required = [true, true, true, true]

    /// A row's time, experiment, variant and subject, or the error naming its field: the one rule for
    /// an exposure row (`results` reading a log and `serve` taking one in alike).
    @inline(__always)
    static func row(_ fields: UnsafeMutableBufferPointer<FieldSlice>, line: Int, _ values: FieldValues) throws(EventError)
        -> (Int64, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) {
        let time = try values.timestamp(fields[0], line: line)
        let experiment = try values.text(fields[1], line: line, field: ExposureField.experiment.rawValue)
        let variant = try values.text(fields[2], line: line, field: ExposureField.variant.rawValue)
        let subject = try values.text(fields[3], line: line, field: ExposureField.subject.rawValue)
        return (time, experiment, variant, subject)
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
        guard bytes.count == other.count else { return false }
        for index in 0..<other.count where bytes[index] != other[index] { return false }
        return true
    }

    static func index(of bytes: UnsafeBufferPointer<UInt8>, in names: [[UInt8]]) -> Int? {
        for (index, name) in names.enumerated() where equal(bytes, name) { return index }
        return nil
    }
}
