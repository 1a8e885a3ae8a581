import Foundation

/// History entries the writer wrote, checked in place and left in the file's bytes.
package struct WrittenHistory: Equatable, Sendable {
    /// How many entries there are.
    package var count: Int
    /// Their bytes, from just after the history's `[` to the end of the last entry's line (empty when there are none):
    /// what the writer writes for them, so a save copies these bytes and appends its new entries after them.
    package var entries: Range<Int>
    /// The last entry's time (nil when there are none): a change recorded before it is placed among
    /// the entries by its time, so the save reads the history whole instead of appending after these bytes.
    package var last: Date?

    package init(count: Int, entries: Range<Int>, last: Date? = nil) {
        self.count = count
        self.entries = entries
        self.last = last
    }
}

/// Recognising the history the writer wrote, so a transaction neither keeps nor re-encodes it.
///
/// A change only appends to the history, so a transaction needs the old entries for two things:
/// the certainty that they are valid, and their bytes in the saved file. When every entry is
/// exactly the writer's line (`StoreLayout.HistoryLine`, the form `StoreWriter` writes: fields in
/// order, strings escaped as `JSONEscape.written` says, dates in the fixed form, exact separators), this checks each
/// as the fast reader and `StoreValidator` would (a known action, a date of the store's form,
/// valid UTF-8, a valid operator) without making a value of it. Anything else is read whole.
extension StoreReader {
    /// The entries of the history array `[ ... ]` when each is exactly the writer's line and valid;
    /// nil, nothing consumed, otherwise.
    static func checkedWrittenHistory(_ cursor: inout JSONCursor) -> WrittenHistory? {
        bracketed(&cursor) { cursor -> WrittenHistory? in
            let start = cursor.position
            guard let (count, last) = checkWrittenHistoryEntries(&cursor) else { return nil }
            return WrittenHistory(count: count, entries: start..<cursor.position, last: last.map { Date(timeIntervalSince1970: Double($0)) })
        }
    }

    /// How many entries there are from just after `[` to the history's closing line, each exactly
    /// the writer's line and valid, and the last one's time in seconds; nil, with the cursor where it was, at the first that is not.
    private static func checkWrittenHistoryEntries(_ cursor: inout JSONCursor) -> (count: Int, last: Int?)? {
        let start = cursor.position
        if cursor.isNext("]") { return (0, nil) }
        var count = 0, last: Int?
        var operatorName: PlainText?
        repeat {
            // An operator with the previous entry's bytes was checked with it.
            guard cursor.consumeExactly(StoreLayout.historySeparator(first: count == 0)),
                  cursor.consumeExactly(StoreLayout.HistoryLine.action), let action = cursor.plainStringContent(), isAction(action),
                  cursor.consumeExactly(StoreLayout.HistoryLine.after), nullOrText(&cursor),
                  cursor.consumeExactly(StoreLayout.HistoryLine.at), let at = cursor.plainStringContent(),
                  let seconds = StoreDate.seconds(parsing: at.bytes),
                  cursor.consumeExactly(StoreLayout.HistoryLine.before), nullOrText(&cursor),
                  cursor.consumeExactly(StoreLayout.HistoryLine.experiment), writtenText(&cursor),
                  cursor.consumeExactly(StoreLayout.HistoryLine.operatorName), let name = writtenOperator(&cursor, repeating: operatorName),
                  cursor.consumeExactly(StoreLayout.HistoryLine.end)
            else {
                cursor.rewind(to: start)
                return nil
            }
            (operatorName, last) = (name, seconds)
            count += 1
        } while cursor.isNext(",")
        guard cursor.isNext(StoreLayout.historyEnd) else {
            cursor.rewind(to: start)
            return nil
        }
        return (count, last)
    }

    /// Whether `content` is the raw value of a `HistoryAction` (what the writer writes for one, known to this version or not).
    private static func isAction(_ content: PlainText) -> Bool {
        HistoryAction.isWord(content.bytes)
    }

    /// Consumes `null` or a string as the writer writes it; false, nothing consumed, otherwise.
    private static func nullOrText(_ cursor: inout JSONCursor) -> Bool {
        cursor.consumeExactly("null") || writtenText(&cursor)
    }

    /// Consumes a string of valid UTF-8 as the writer writes it; false, nothing consumed, otherwise.
    private static func writtenText(_ cursor: inout JSONCursor) -> Bool {
        let start = cursor.position
        guard let text = cursor.writtenStringContent(), RepeatedText.isUTF8(text.content) else {
            cursor.rewind(to: start)
            return false
        }
        return true
    }

    /// Consumes an operator as the writer writes it that `Identifier.isValidSubject` accepts, and
    /// answers its bytes (`previous` itself when they repeat it, checked already); nil otherwise.
    private static func writtenOperator(_ cursor: inout JSONCursor, repeating previous: PlainText?) -> PlainText? {
        if let plain = cursor.plainStringContent(repeating: previous) {
            return plain.bytes.baseAddress == previous?.bytes.baseAddress || RepeatedText.isValidSubject(plain) ? plain : nil
        }
        // Escaped: a quote or a backslash (control characters are refused anyway); decoded to be checked.
        let start = cursor.position
        guard let written = cursor.writtenStringContent() else { return nil }
        let end = cursor.position
        cursor.rewind(to: start)
        guard let text = cursor.string(), cursor.position == end, Identifier.isValidSubject(text) else { return nil }
        return written.content
    }
}
