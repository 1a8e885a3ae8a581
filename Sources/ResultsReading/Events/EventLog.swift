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
        var scanner = RowScanner(self)
        defer { scanner.free() }
        var sawHeader = false
        var sinceCheckpoint = 0
        let format = self.format
        func row(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws -> Bool {
            if RowScanner.isBlank(line) { return true }
            if format == .csv, !sawHeader {
                sawHeader = true
                try scanner.readHeader(line, number: number)
                return true
            }
            try scanner.scan(line, number: number, atFileStart: number == 1)
            try body(scanner.slices, number)
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
                note = Self.incompleteNote(path, number, field, reason)
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

    /// The note for an incomplete last line that was ignored.
    static func incompleteNote(_ path: String, _ number: Int, _ field: String?, _ reason: String) -> String {
        let problem = (field.map { "field `\($0)`: " } ?? "") + reason
        return "\(path):\(number): the last line is incomplete (being written?) and was ignored: \(problem)"
    }
}
