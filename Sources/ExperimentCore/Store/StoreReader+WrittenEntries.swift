import Foundation

/// What one read of a store file found.
package struct StoreReading {
    package var document: StoreDocument
    /// The byte range of every experiment written exactly as `StoreWriter` writes it, by key: a
    /// save that leaves such an experiment unchanged copies those bytes instead of encoding it.
    package var verbatim: [String: Range<Int>]
}

/// Recognising bytes the writer wrote, so unchanged experiments can be saved by copying them.
///
/// An experiment counts as written by the writer only when it provably is: its whitelist entries
/// match the writer's line form byte for byte (fields in order, strings without escapes, dates in
/// the fixed form, subjects strictly ascending, exact separators), and its other lines equal a
/// fresh encoding of its head and tail. Anything else — an escape, an extra space, an unsorted
/// entry — is simply encoded again on save.
extension StoreReader {
    /// Whitelist entries exactly as the writer writes them, from just after `[` up to the closing
    /// bracket's line; nil, with the cursor where it was, at the first byte that differs.
    static func readWrittenEntries(_ cursor: inout JSONCursor) -> [WhitelistEntry]? {
        let start = cursor.position
        var entries: [WhitelistEntry] = []
        if cursor.isNext("]") { return entries }
        var previous: UnsafeBufferPointer<UInt8>?
        repeat {
            guard cursor.consumeExactly(StoreLayout.entrySeparator(first: entries.isEmpty)),
                  cursor.consumeExactly("{\"added_at\": \""), let addedAt = writtenDate(&cursor),
                  cursor.consumeExactly("\", \"added_by\": "), let addedBy = cursor.plainStringHere(),
                  cursor.consumeExactly(", \"note\": "), let note = cursor.plainStringHere(),
                  cursor.consumeExactly(", \"subject\": "), let subject = cursor.plainStringHere(),
                  previous.map({ ascending($0, subject.bytes) }) ?? true,
                  cursor.consumeExactly(", \"variant\": "), let variant = cursor.plainStringHere(),
                  cursor.consumeExactly("}")
            else {
                cursor.rewind(to: start)
                return nil
            }
            previous = subject.bytes
            entries.append(WhitelistEntry(subject: subject.text, variant: variant.text, note: note.text, addedBy: addedBy.text, addedAt: addedAt))
        } while cursor.isNext(",")
        guard cursor.isNext("\n      ]") else {
            cursor.rewind(to: start)
            return nil
        }
        return entries
    }

    /// The 20-byte date and its closing quote, exactly here.
    private static func writtenDate(_ cursor: inout JSONCursor) -> Date? {
        guard let text = cursor.take(StoreDate.length), let seconds = StoreDate.seconds(parsing: text) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Whether `lhs` sorts strictly before `rhs` in byte order (as the writer sorts subjects).
    private static func ascending(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        let shared = min(lhs.count, rhs.count)
        if shared > 0, let a = lhs.baseAddress, let b = rhs.baseAddress {
            let order = memcmp(a, b, shared)
            if order != 0 { return order < 0 }
        }
        return lhs.count < rhs.count
    }
}
