import ExperimentCore

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

    /// Every row is checked; rows of this experiment inside the window shape the subjects (in file order, whatever the threads).
    func run(progress: ReadProgress?, notes: inout [String], parallelism: ReadParallelism = .default) throws(EventError) -> SubjectStates {
        let log = try EventLog(path: request.exposuresPath, fields: Self.fields, required: [true, true, true, true])
        let values = FieldValues(path: log.path)
        let key = Array(request.experiment.key.utf8)
        let names = request.experiment.variants.map { Array($0.name.utf8) }
        let from = request.window.from, to = request.window.to
        let states = SubjectStates()
        let table = states.table
        let unknown = Record(time: 0, subject: ByteSpan(offset: 0, count: 0), key: SubjectTable.Key(UnsafeBufferPointer(start: nil, count: 0)), variant: -1)
        let note = try log.forEachRecord(progress: progress, partialLastLine: true, parallelism: parallelism, parse: { (fields, line, arena) throws(EventError) -> Record? in
            let time = try values.timestamp(fields[0], line: line)
            let experiment = try values.text(fields[1], line: line, field: ExposureField.experiment.rawValue)
            let variant = try values.text(fields[2], line: line, field: ExposureField.variant.rawValue)
            let subject = try values.text(fields[3], line: line, field: ExposureField.subject.rawValue)
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
        return states
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
