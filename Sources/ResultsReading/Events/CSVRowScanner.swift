/// Splits CSV rows (RFC 4180: quoted fields, `""` inside quotes) into the wanted columns found in the header.
///
/// A quoted field may not span lines (an event log has no newlines in its fields); a row with
/// fewer or more fields than the header is refused. Spaces and tabs around a field are not part of
/// it, in the header as in the rows (a quoted field keeps the spaces inside its quotes); a header
/// naming a column twice is refused rather than guessed.
struct CSVRowScanner {
    let wanted: [String]
    /// The column of each wanted field, or nil when the header lacks it.
    private(set) var columns: [Int?] = []
    private(set) var header: [String] = []
    private var columnToWanted: [Int] = []
    var scratch = ScratchBuffer()

    init(wanted: [String]) { self.wanted = wanted }

    /// Reads the header row; returns the reason when it is not a header.
    mutating func readHeader(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        var names: [String] = []
        var slices = [FieldSlice](repeating: .absent, count: 0)
        let problem = split(line) { slices.append($0) }
        if let problem { return problem }
        names = slices.map { String(decoding: $0.bytes, as: UTF8.self).trimmingSpaces() }
        for (index, name) in names.enumerated() {
            if let earlier = names[..<index].firstIndex(of: name) {
                return "the header names the column `\(name)` twice (columns \(earlier + 1) and \(index + 1)); name each column once"
            }
        }
        header = names
        columns = wanted.map { names.firstIndex(of: $0) }
        columnToWanted = names.map { name in wanted.firstIndex(of: name) ?? -1 }
        return nil
    }

    /// Fills `fields` (one per wanted name) from `line`; returns a problem as (field, reason).
    mutating func scan(_ line: UnsafeBufferPointer<UInt8>, into fields: UnsafeMutableBufferPointer<FieldSlice>) -> (String?, String)? {
        scratch.reset(forRowOf: line.count)
        for index in fields.indices { fields[index] = .absent }
        var column = 0
        let map = columnToWanted
        let problem = split(line) { slice in
            if column < map.count, map[column] >= 0 { fields[map[column]] = slice }
            column += 1
        }
        if let problem { return (column < header.count ? header[column] : nil, problem) }
        if column != header.count {
            let field = column < header.count ? header[column] : nil
            return (field, "the row has \(column) fields, the header has \(header.count)")
        }
        return nil
    }

    /// Calls `body` with each field of `line`; returns a reason when the quoting is broken.
    private mutating func split(_ line: UnsafeBufferPointer<UInt8>, _ body: (FieldSlice) -> Void) -> String? {
        guard let base = line.baseAddress else {
            body(FieldSlice(base: nil, count: 0, kind: .string))
            return nil
        }
        let n = line.count
        var index = 0
        while true {
            while index < n, Self.isSpace(base[index]) { index += 1 }
            if index < n, base[index] == UInt8(ascii: "\"") {
                index += 1
                let start = scratch.used
                var closed = false
                while index < n {
                    let byte = base[index]
                    if byte == UInt8(ascii: "\"") {
                        if index + 1 < n, base[index + 1] == UInt8(ascii: "\"") {
                            scratch.append(byte)
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    scratch.append(byte)
                    index += 1
                }
                guard closed else { return "a quoted field is not closed on its line" }
                body(FieldSlice(base: UnsafePointer(scratch.pointer + start), count: scratch.used - start, kind: .string))
                while index < n, Self.isSpace(base[index]) { index += 1 }
                if index == n { return nil }
                guard base[index] == UInt8(ascii: ",") else { return "text after a closing quote" }
                index += 1
            } else {
                let start = index
                while index < n, base[index] != UInt8(ascii: ",") {
                    if base[index] == UInt8(ascii: "\"") { return "a quote inside an unquoted field" }
                    index += 1
                }
                var end = index
                while end > start, Self.isSpace(base[end - 1]) { end -= 1 }
                body(FieldSlice(base: base + start, count: end - start, kind: .string))
                if index == n { return nil }
                index += 1
            }
        }
    }
}

extension CSVRowScanner {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
