import ExperimentCore
import Foundation

/// Reads a whitelist import: CSV lines of `subject,variant[,note]` (RFC 4180 quoting, LF or CRLF).
///
/// An optional header line `subject,variant[,note]` is skipped, as are blank lines. Any malformed
/// line makes the whole file fail with an error naming that line, so an import is all-or-nothing.
public enum WhitelistCSV {
    /// The rows of `data`, or the first problem with its line number.
    public static func parse(_ data: Data) throws(ExperimentError) -> [WhitelistRow] {
        var bytes = [UInt8](data)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw .importRow(line: firstInvalidLine(data), reason: "the file is not UTF-8 text")
        }
        // A spreadsheet's byte order mark is not part of the first subject id.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var rows: [WhitelistRow] = []
        var reader = Reader(bytes: bytes)
        var isFirst = true
        while let record = try reader.nextRecord() {
            defer { isFirst = false }
            if record.fields == [""] { continue }
            if isFirst, isHeader(record.fields) { continue }
            guard (2...3).contains(record.fields.count) else {
                throw .importRow(line: record.line, reason: "expected subject,variant[,note] but found \(record.fields.count) field\(record.fields.count == 1 ? "" : "s")")
            }
            rows.append(WhitelistRow(line: record.line, subject: record.fields[0], variant: record.fields[1],
                                     note: record.fields.count == 3 ? record.fields[2] : ""))
        }
        return rows
    }

    private static func isHeader(_ fields: [String]) -> Bool {
        let lowered = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return lowered == ["subject", "variant"] || lowered == ["subject", "variant", "note"]
    }

    private static func firstInvalidLine(_ data: Data) -> Int {
        var line = 1
        var start = data.startIndex
        for index in data.indices where data[index] == 0x0A {
            if String(validating: data[start..<index], as: UTF8.self) == nil { return line }
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
            while true {
                if position < bytes.count, bytes[position] == UInt8(ascii: "\""), field.isEmpty {
                    position += 1
                    try readQuoted(into: &field, startLine: startLine)
                    guard position >= bytes.count || [UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[position]) else {
                        throw .importRow(line: line, reason: "unexpected text after a closing quote")
                    }
                }
                guard position < bytes.count else {
                    fields.append(String(decoding: field, as: UTF8.self))
                    return Record(line: startLine, fields: fields)
                }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: ","):
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll(keepingCapacity: true)
                case 0x0D where position < bytes.count && bytes[position] == 0x0A:
                    continue
                case 0x0A:
                    line += 1
                    fields.append(String(decoding: field, as: UTF8.self))
                    return Record(line: startLine, fields: fields)
                case UInt8(ascii: "\""):
                    throw .importRow(line: line, reason: "a quote inside an unquoted field; wrap the field in quotes and double the inner quote")
                default:
                    field.append(byte)
                }
            }
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
