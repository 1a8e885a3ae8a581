/// One thread's scanner of an event log's rows: the CSV or JSON scanner and the field slices a row fills.
///
/// The sequential reader and each thread of the parallel reader use it alike, so a row reads (and
/// fails) the same way whichever reads it. `free()` releases its memory.
struct RowScanner {
    let path: String
    let format: EventFormat
    let fields: [String]
    let required: [Bool]
    private(set) var csv: CSVRowScanner
    private var json: JSONRowScanner
    let slices: UnsafeMutableBufferPointer<FieldSlice>

    init(_ log: EventLog) {
        self.init(path: log.path, format: log.format, fields: log.fields, required: log.required, csv: CSVRowScanner(wanted: log.fields))
    }

    private init(path: String, format: EventFormat, fields: [String], required: [Bool], csv: CSVRowScanner) {
        self.path = path
        self.format = format
        self.fields = fields
        self.required = required
        self.csv = csv
        json = JSONRowScanner(wanted: fields)
        slices = .allocate(capacity: max(1, fields.count))
    }

    /// A scanner for another thread: the same header, its own memory.
    func copy() -> RowScanner {
        var csv = self.csv
        csv.scratch = ScratchBuffer()
        return RowScanner(path: path, format: format, fields: fields, required: required, csv: csv)
    }

    func free() {
        csv.scratch.free()
        json.scratch.free()
        slices.deallocate()
    }

    /// Reads a CSV header (the first non-blank line, number `number`); throws when it is not one or lacks a required column.
    mutating func readHeader(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(EventError) {
        if let reason = csv.readHeader(Self.withoutBOM(line, atFileStart: number == 1)) {
            throw .malformed(file: path, line: number, field: nil, reason: reason)
        }
        for (index, column) in csv.columns.enumerated() where column == nil && required[index] {
            throw .malformed(file: path, line: number, field: fields[index],
                             reason: "the header has no `\(fields[index])` column (it has: \(csv.header.joined(separator: ", ")))")
        }
    }

    /// Fills `slices` from a data row numbered `number` (the first line of the file when `atFileStart`); throws when it breaks the format.
    mutating func scan(_ line: UnsafeBufferPointer<UInt8>, number: Int, atFileStart: Bool) throws(EventError) {
        let problem: (String?, String)?
        switch format {
        case .csv: problem = csv.scan(line, into: slices)
        case .jsonLines: problem = json.scan(Self.withoutBOM(line, atFileStart: atFileStart), into: slices)
        }
        if let (field, reason) = problem { throw .malformed(file: path, line: number, field: field, reason: reason) }
        for index in 0..<fields.count where required[index] {
            let kind = slices[index].kind
            if kind == .absent || kind == .null { throw .malformed(file: path, line: number, field: fields[index], reason: "missing") }
        }
    }

    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where byte != 0x20 && byte != 0x09 { return false }
        return true
    }

    static func withoutBOM(_ line: UnsafeBufferPointer<UInt8>, atFileStart: Bool) -> UnsafeBufferPointer<UInt8> {
        guard atFileStart, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF, let base = line.baseAddress else { return line }
        return UnsafeBufferPointer(start: base + 3, count: line.count - 3)
    }
}
