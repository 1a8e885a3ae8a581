/// The two log formats of SPEC §8, told apart by the file name's extension.
package enum EventFormat: Sendable, Equatable {
    case jsonLines, csv

    /// `.jsonl` and `.ndjson` are JSON Lines, `.csv` is CSV (any case); anything else is refused, not sniffed.
    package static func of(path: String) -> EventFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson": return .jsonLines
        case "csv": return .csv
        default: return nil
        }
    }
}

/// One field of a row as the scanner found it: bytes (pointing into the line or the scanner's scratch) and a kind.
struct FieldSlice {
    enum Kind: UInt8 { case absent, string, number, null, other }
    var base: UnsafePointer<UInt8>?
    var count: Int
    var kind: Kind

    static var absent: FieldSlice { FieldSlice(base: nil, count: 0, kind: .absent) }

    /// The bytes (empty when absent).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
}

/// Reusable scratch memory for unescaped strings; pointers into it hold until the next row.
struct ScratchBuffer {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var used = 0

    init() {
        capacity = 4096
        pointer = .allocate(capacity: capacity)
    }

    /// Makes room for a row of `count` bytes (unescaping never grows text) and starts it empty.
    mutating func reset(forRowOf count: Int) {
        used = 0
        guard count > capacity else { return }
        pointer.deallocate()
        capacity = max(count, capacity * 2)
        pointer = .allocate(capacity: capacity)
    }

    mutating func append(_ byte: UInt8) {
        pointer[used] = byte
        used += 1
    }

    func free() { pointer.deallocate() }
}
