/// One event log on disk: its path, format and the fields a reader wants from each row.
///
/// Streams rows to a closure; each row's fields are lent as bytes, valid only during the call.
/// Blank lines are skipped; the first line of a CSV file is its header.
struct EventLog {
    let path: String
    let format: EventFormat
    /// The wanted field names, in the order the row hands them out.
    let fields: [String]
    /// Which of `fields` every row must carry.
    let required: [Bool]

    init(path: String, fields: [String], required: [Bool]) throws(EventError) {
        guard let format = EventFormat.of(path: path) else { throw .unknownFormat(file: path) }
        self.path = path
        self.format = format
        self.fields = fields
        self.required = required
    }

    /// How often (in rows) progress is published and cancellation checked.
    static let checkpoint = 1 << 14

    /// Calls `body` with each row's fields and line number; returns a note when a partial last line was ignored.
    ///
    /// With `partialLastLine`, a last line without a newline that does not read as a row (the
    /// format, a missing field, a bad value) is taken as not yet written by a logger appending to
    /// the file: it is skipped and the note says so. One that reads is counted like any other.
    @discardableResult
    func forEachRow(progress: ReadProgress?, partialLastLine: Bool = false,
                    _ body: (UnsafeMutableBufferPointer<FieldSlice>, Int) throws(EventError) -> Void) throws(EventError) -> String? {
        let slices = UnsafeMutableBufferPointer<FieldSlice>.allocate(capacity: fields.count)
        defer { slices.deallocate() }
        var csv = CSVRowScanner(wanted: fields)
        var json = JSONRowScanner(wanted: fields)
        defer {
            csv.scratch.free()
            json.scratch.free()
        }
        var sawHeader = false
        var sinceCheckpoint = 0
        let path = self.path, format = self.format, fields = self.fields, required = self.required
        func row(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws -> Bool {
            if Self.isBlank(line) { return true }
            let problem: (String?, String)?
            switch format {
            case .csv:
                guard sawHeader else {
                    sawHeader = true
                    if let reason = csv.readHeader(Self.withoutBOM(line, number)) { throw EventError.malformed(file: path, line: number, field: nil, reason: reason) }
                    for (index, column) in csv.columns.enumerated() where column == nil && required[index] {
                        throw EventError.malformed(file: path, line: number, field: fields[index],
                                                   reason: "the header has no `\(fields[index])` column (it has: \(csv.header.joined(separator: ", ")))")
                    }
                    return true
                }
                problem = csv.scan(line, into: slices)
            case .jsonLines:
                problem = json.scan(Self.withoutBOM(line, number), into: slices)
            }
            if let (field, reason) = problem { throw EventError.malformed(file: path, line: number, field: field, reason: reason) }
            for index in 0..<fields.count where required[index] {
                let kind = slices[index].kind
                if kind == .absent || kind == .null { throw EventError.malformed(file: path, line: number, field: fields[index], reason: "missing") }
            }
            try body(slices, number)
            sinceCheckpoint += 1
            if sinceCheckpoint == Self.checkpoint {
                sinceCheckpoint = 0
                progress?.add(rows: Self.checkpoint)
                if progress?.isCancelled == true { throw EventError.cancelled }
            }
            return true
        }
        var note: String?
        let bytesRead = try LineReader(path: path).forEachLine(progress: progress, row, unterminated: { line, number in
            do {
                _ = try row(line, number)
            } catch EventError.malformed(_, let failed, let field, let reason) where partialLastLine && failed == number {
                let problem = (field.map { "field `\($0)`: " } ?? "") + reason
                note = "\(path):\(number): the last line is incomplete (being written?) and was ignored: \(problem)"
            }
        })
        if format == .csv, !sawHeader {
            // Nothing but blank lines (or nothing at all): no header to check the file against.
            throw .malformed(file: path, line: 1, field: nil, reason: (bytesRead == 0 ? "the file is empty" : "only blank lines")
                + ": no header (a CSV log starts with a header line naming its columns: \(fields.joined(separator: ",")))")
        }
        progress?.add(rows: sinceCheckpoint)
        return note
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where byte != 0x20 && byte != 0x09 { return false }
        return true
    }

    private static func withoutBOM(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) -> UnsafeBufferPointer<UInt8> {
        guard number == 1, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF, let base = line.baseAddress else { return line }
        return UnsafeBufferPointer(start: base + 3, count: line.count - 3)
    }
}
