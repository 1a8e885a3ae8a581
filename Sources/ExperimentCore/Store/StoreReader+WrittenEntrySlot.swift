#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Finding one subject's line among whitelist entries the writer wrote, without reading the others.
extension StoreReader {
    /// The slot of `subject` among `entries` (from just after the whitelist's `[` to the end of its
    /// last line, each line with the separator before it, as `checkedWrittenEntries` accepted them):
    /// its line and that line's entry, or the empty range where its line would go (subjects ascend
    /// in byte order); nil when a line is not the writer's after all.
    package static func writtenEntrySlot(for subject: SubjectID, in bytes: UnsafeBufferPointer<UInt8>,
                                         entries: Range<Int>) -> (slot: Range<Int>, entry: WhitelistEntry?)? {
        guard let base = bytes.baseAddress, entries.upperBound <= bytes.count else { return nil }
        return subject.withUTF8 { target -> (slot: Range<Int>, entry: WhitelistEntry?)? in
            var position = entries.lowerBound
            while position < entries.upperBound {
                let first = position == entries.lowerBound
                let line = position + StoreLayout.entrySeparator(first: first).utf8CodeUnitCount
                guard line < entries.upperBound else { return nil }
                // A line ends before the next separator's comma (`,\n`), the last at the entries' end.
                let end = memchr(base + line, 0x0A, entries.upperBound - line)
                    .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) - 1 } ?? entries.upperBound
                // The writer's line holds no escaped quote: the subject's value opens at its fifteenth quote,
                // after the added_at, added_by and note fields and their names.
                var open = line - 1
                for _ in 0..<15 {
                    guard open + 1 < end, let quote = memchr(base + open + 1, Int32(UInt8(ascii: "\"")), end - open - 1) else { return nil }
                    open = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
                }
                let marker = StoreLayout.WhitelistLine.subject
                guard open - line >= marker.utf8CodeUnitCount, memcmp(base + open - marker.utf8CodeUnitCount, marker.utf8Start, marker.utf8CodeUnitCount) == 0,
                      let close = memchr(base + open + 1, Int32(UInt8(ascii: "\"")), end - open - 1) else { return nil }
                let text = UnsafeBufferPointer(start: base + open + 1, count: base.distance(to: close.assumingMemoryBound(to: UInt8.self)) - open - 1)
                if SubjectOrder.precedes(target, text) { return (position..<position, nil) }
                if !SubjectOrder.precedes(text, target) {
                    var cursor = JSONCursor(UnsafeBufferPointer(rebasing: bytes[line..<end]))
                    guard let entry = readWhitelistEntry(&cursor), cursor.isAtEnd(), SubjectID(entry.subject) == subject else { return nil }
                    return (position..<end, entry)
                }
                position = end
            }
            return (entries.upperBound..<entries.upperBound, nil)
        }
    }
}
