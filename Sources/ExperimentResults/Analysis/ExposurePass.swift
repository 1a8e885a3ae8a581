/// Reads the exposures log into per-subject states (SPEC §8 "Per subject").
struct ExposurePass {
    static let fields = ["timestamp", "experiment", "variant", "subject"]

    let request: AnalysisRequest

    /// Every row is checked; rows of this experiment inside the window shape the subjects.
    func run(progress: ReadProgress?, notes: inout [String]) throws(EventError) -> SubjectStates {
        let log = try EventLog(path: request.exposuresPath, fields: Self.fields, required: [true, true, true, true])
        let values = FieldValues(path: log.path)
        let key = Array(request.experiment.key.utf8)
        let names = request.experiment.variants.map { Array($0.name.utf8) }
        let from = request.window.from, to = request.window.to
        var states = SubjectStates()
        let note = try log.forEachRow(progress: progress, partialLastLine: true) { (fields, line) throws(EventError) in
            let time = try values.timestamp(fields[0], line: line)
            let experiment = try values.text(fields[1], line: line, field: "experiment")
            let variant = try values.text(fields[2], line: line, field: "variant")
            let subject = try values.text(fields[3], line: line, field: "subject")
            guard Self.equal(experiment, key), time >= from, time <= to else { return }
            guard let index = Self.index(of: variant, in: names) else {
                states.unknownVariantRows += 1
                return
            }
            states.expose(subject, variant: Int16(index), at: time)
        }
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
