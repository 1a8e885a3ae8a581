import ExperimentCore
import ExperimentEditing
import Foundation

/// Reads a whitelist import: CSV lines of `subject,variant[,note]` (RFC 4180 quoting, LF or CRLF).
///
/// Spaces around the commas (outside quotes) are dropped, as many CSV writers put them there; a quoted
/// field is kept exactly. An optional header line `subject,variant[,note]` is skipped, as are blank lines. Any malformed
/// line makes the whole file fail, naming every such line, so an import is all-or-nothing.
public enum WhitelistCSV {
    /// The rows of `data`, or every malformed line (`importRow` for one, `importRows` for several).
    public static func parse(_ data: Data) throws(ExperimentError) -> [WhitelistRow] {
        let parsed = try parseCollecting(data)
        if let error = parsed.problems.error { throw error }
        return parsed.rows
    }

    /// The well-formed rows of `data` and every malformed line, so that a refusal can name them all.
    ///
    /// Throws only when the file as a whole cannot be read (not UTF-8).
    public static func parseCollecting(_ data: Data) throws(ExperimentError) -> (rows: [WhitelistRow], problems: ImportProblems) {
        var bytes = [UInt8](data)
        guard ValidUTF8.string(bytes) != nil else {
            throw .importRow(line: firstInvalidLine(data), reason: "the file is not UTF-8 text")
        }
        // A spreadsheet's byte order mark is not part of the first subject id.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var rows: [WhitelistRow] = []
        var problems = ImportProblems()
        var reader = Reader(bytes: bytes)
        var isFirst = true
        while true {
            let record: Record
            do {
                guard let next = try reader.nextRecord() else { break }
                record = next
            } catch {
                // The line is reported and skipped; reading goes on at the next line.
                if case .importRow(let line, let reason) = error { problems.append(line: line, reason) }
                reader.skipLine()
                isFirst = false
                continue
            }
            defer { isFirst = false }
            if record.fields == [""] { continue }
            if isFirst, isHeader(record.fields) { continue }
            guard (2...3).contains(record.fields.count) else {
                problems.append(line: record.line, "expected subject,variant[,note] but found \(record.fields.count) field\(record.fields.count == 1 ? "" : "s")")
                continue
            }
            rows.append(WhitelistRow(line: record.line, subject: record.fields[0], variant: record.fields[1],
                                     note: record.fields.count == 3 ? record.fields[2] : ""))
        }
        return (rows, problems)
    }

    private static func isHeader(_ fields: [String]) -> Bool {
        let lowered = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return lowered == ["subject", "variant"] || lowered == ["subject", "variant", "note"]
    }

    private static func firstInvalidLine(_ data: Data) -> Int {
        var line = 1
        var start = data.startIndex
        for index in data.indices where data[index] == 0x0A {
            if ValidUTF8.string(data[start..<index]) == nil { return line }
            line += 1
            start = data.index(after: index)
        }
        return line
    }

    /// One CSV record and the line it starts on.
    struct Record {
        var line: Int
        var fields: [String]
    }

    /// A byte-level RFC 4180 reader that tracks line numbers.
    struct Reader {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func nextRecord() throws(ExperimentError) -> Record? {
            guard position < bytes.count else { return nil }
            let startLine = line
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false
            while true {
                if field.isEmpty, !quoted {
                    // Spaces before a field (`a, b`) are not part of it, quoted or not.
                    while position < bytes.count, bytes[position] == Reader.space { position += 1 }
                    if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                        position += 1
                        quoted = true
                        try readQuoted(into: &field, startLine: startLine)
                        while position < bytes.count, bytes[position] == Reader.space { position += 1 }
                        guard position >= bytes.count || [UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[position]) else {
                            throw .importRow(line: line, reason: "unexpected text after a closing quote")
                        }
                    }
                }
                guard position < bytes.count else {
                    fields.append(Reader.text(field, quoted: quoted))
                    return Record(line: startLine, fields: fields)
                }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: ","):
                    fields.append(Reader.text(field, quoted: quoted))
                    field.removeAll(keepingCapacity: true)
                    quoted = false
                case 0x0D where position < bytes.count && bytes[position] == 0x0A:
                    continue
                case 0x0A:
                    line += 1
                    fields.append(Reader.text(field, quoted: quoted))
                    return Record(line: startLine, fields: fields)
                case UInt8(ascii: "\""):
                    throw .importRow(line: line, reason: "a quote inside an unquoted field; wrap the field in quotes and double the inner quote")
                default:
                    field.append(byte)
                }
            }
        }

        /// Moves past the end of the current line, after a malformed one.
        mutating func skipLine() {
            while position < bytes.count, bytes[position] != 0x0A { position += 1 }
            if position < bytes.count {
                position += 1
                line += 1
            }
        }

        private static let space = UInt8(ascii: " ")

        /// A field's text: an unquoted field without the spaces before the next comma; a quoted one exactly.
        private static func text(_ field: [UInt8], quoted: Bool) -> String {
            guard !quoted else { return String(decoding: field, as: UTF8.self) }
            var end = field.count
            while end > 0, field[end - 1] == space { end -= 1 }
            return String(decoding: field[..<end], as: UTF8.self)
        }

        private mutating func readQuoted(into field: inout [UInt8], startLine: Int) throws(ExperimentError) {
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") {
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return }
                    position += 1
                }
                if byte == 0x0A { line += 1 }
                field.append(byte)
            }
            throw .importRow(line: startLine, reason: "a quoted field is never closed")
        }
    }
}
