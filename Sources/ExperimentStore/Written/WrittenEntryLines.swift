import ExperimentCore
import Foundation

/// The lines of a whitelist the writer wrote, in subject order: each `{…}` and its subject's bytes.
///
/// The entries' bytes run from just after `[` to the end of the last line, each line after
/// `StoreLayout.entrySeparator`; a line in the writer's form holds no newline (its strings have no
/// escapes) and no quote inside a string, so its subject is what follows the only `, "subject": "`.
struct WrittenEntryLines {
    let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int

    /// Where the walk is: every line before it has been read.
    var offset: Int { position }

    init(_ bytes: UnsafeBufferPointer<UInt8>, entries: Range<Int>?) {
        self.bytes = bytes
        (position, end) = entries.map { ($0.lowerBound, $0.upperBound) } ?? (0, 0)
    }

    /// The next entry's line and its subject; nil after the last (or at bytes not in the writer's form).
    mutating func next() -> (line: Range<Int>, subject: Range<Int>)? {
        guard let line = nextLine(), let base = bytes.baseAddress else { return nil }
        let (start, stop) = (line.lowerBound, line.upperBound)
        guard let subjectStart = Self.after(Self.subjectPattern, in: base, start..<stop), subjectStart < stop, let quote = memchr(base + subjectStart, Int32(UInt8(ascii: "\"")), stop - subjectStart) else { return nil }
        return (start..<stop, subjectStart..<base.distance(to: quote.assumingMemoryBound(to: UInt8.self)))
    }

    /// The next entry's line, `{…}`; nil after the last.
    mutating func nextLine() -> Range<Int>? {
        guard position < end, let base = bytes.baseAddress else { return nil }
        let separator = StoreLayout.entrySeparator(first: bytes[position] != UInt8(ascii: ","))
        let start = position + separator.utf8CodeUnitCount
        guard start < end else { return nil }
        var stop = end
        if let newline = memchr(base + start, 0x0A, end - start) {
            // The next line's separator starts with the comma just before its newline.
            stop = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) - 1
        }
        position = stop
        return start..<stop
    }

    /// Where the first `pattern` in `range` ends; nil when there is none.
    private static func after(_ pattern: StaticString, in base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int? {
        let length = pattern.utf8CodeUnitCount
        var position = range.lowerBound
        while position + length <= range.upperBound,
              let hit = memchr(base + position, Int32(pattern.utf8Start[0]), range.upperBound - length + 1 - position) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, pattern.utf8Start, length) == 0 { return at + length }
            position = at + 1
        }
        return nil
    }

    /// What comes before a subject's bytes in an entry's line.
    private static let subjectPattern: StaticString = ", \"subject\": \""
}
