import Foundation

extension StoreReading {
    /// Makes each pending whitelist its experiment's dictionary, freeing each array as it goes.
    mutating func buildPendingWhitelists() {
        for index in pending.indices {
            var entries = pending[index].entries
            pending[index].entries = []
            var whitelist = [SubjectID: WhitelistEntry](minimumCapacity: entries.count)
            // Read strictly ascending, so the subjects are distinct; popped, each entry is moved, not copied.
            while let entry = entries.popLast() { whitelist[SubjectID(entry.subject)] = entry.entry }
            document.experiments[pending[index].experiment].whitelist = whitelist
        }
        pending = []
    }
}

/// Recognising bytes the writer wrote, so unchanged experiments can be saved by copying them.
///
/// An experiment counts as written by the writer only when it provably is: its whitelist entries
/// match the writer's line form byte for byte (fields in order, strings without escapes, dates in
/// the fixed form, subjects strictly ascending, exact separators), and its other lines equal a
/// fresh encoding of its head and tail. Anything else — an escape, an extra space, an unsorted
/// entry — is simply encoded again on save.
extension StoreReader {
    /// The entries by subject; nil on a repeated subject (JSONDecoder names it).
    ///
    /// Entries exactly in the writer's form are read by `readWrittenEntries` straight into a
    /// dictionary sized from their line count (and their byte range noted in `writtenEntries`), any
    /// others field by field into an array first, so the dictionary is sized once: growing it while
    /// reading re-hashed every subject at each doubling.
    static func readWhitelist(_ cursor: inout JSONCursor, writtenEntries: inout Range<Int>?) -> [SubjectID: WhitelistEntry]? {
        guard cursor.consume(UInt8(ascii: "[")) else { return nil }
        let start = cursor.position
        if let written = readWrittenEntries(&cursor) {
            writtenEntries = start..<cursor.position
            return cursor.consume(UInt8(ascii: "]")) ? written : nil
        }
        var entries: [WhitelistEntry] = []
        let complete = readElements(&cursor, opened: true) { cursor in
            guard let entry = readWhitelistEntry(&cursor) else { return false }
            entries.append(entry)
            return true
        }
        guard complete else { return nil }
        var whitelist = [SubjectID: WhitelistEntry](minimumCapacity: entries.count)
        for entry in entries where whitelist.updateValue(entry, forKey: SubjectID(entry.subject)) != nil { return nil }
        return whitelist
    }

    /// The byte range of the entries of `[ ... ]` when `checkWrittenEntries` passes them; nil, nothing consumed, otherwise.
    static func checkedWrittenEntries(_ cursor: inout JSONCursor, variants: [String]) -> Range<Int>? {
        var entries = 0..<0
        let checked = bracketed(&cursor) { cursor -> Bool? in
            let start = cursor.position
            guard checkWrittenEntries(&cursor, variants: variants) else { return nil }
            entries = start..<cursor.position
            return true
        }
        return checked == nil ? nil : entries
    }

    /// What `read` makes of the inside of `[ ... ]`; nil, nothing consumed, when it or the brackets fail.
    static func bracketed<Value>(_ cursor: inout JSONCursor, _ read: (inout JSONCursor) -> Value?) -> Value? {
        let before = cursor.position
        guard cursor.consume(UInt8(ascii: "[")), let value = read(&cursor), cursor.consume(UInt8(ascii: "]")) else {
            cursor.rewind(to: before)
            return nil
        }
        return value
    }

    /// Whitelist entries exactly as the writer writes them, from just after `[` up to the closing
    /// bracket's line, by subject; nil, with the cursor where it was, at the first byte that differs.
    ///
    /// The dictionary is sized once from the entries' line count and filled as they are read (no
    /// array of entries in between), and a date, note, operator or variant equal to the previous
    /// entry's is not read again (entries added together share them), so a big whitelist costs one
    /// dictionary slot and its subject an entry.
    static func readWrittenEntries(_ cursor: inout JSONCursor) -> [SubjectID: WhitelistEntry]? {
        var whitelist: [SubjectID: WhitelistEntry] = [:]
        if !cursor.isNext("]") { whitelist.reserveCapacity(lines(in: cursor.bytes, from: cursor.position, starting: "        {\"added_at\": \"", atLeast: 100)) }
        var addedAt = RepeatedDate(), addedBy = RepeatedText(), note = RepeatedText(), variant = RepeatedText()
        let complete = scanWrittenEntries(&cursor) { fields in
            guard let date = addedAt.read(fields.addedAt), let addedBy = addedBy.read(fields.addedBy), let note = note.read(fields.note),
                  let subject = RepeatedText.text(fields.subject), let variant = variant.read(fields.variant) else { return false }
            // Strictly ascending subjects are distinct, so this never replaces an entry.
            whitelist[SubjectID(subject)] = WhitelistEntry(subject: subject, variant: variant, note: note, addedBy: addedBy, addedAt: date)
            return true
        }
        return complete ? whitelist : nil
    }

    /// Whitelist entries exactly as the writer writes them, as `readWrittenEntries` reads them, in
    /// subject order in an array of exactly their count.
    static func readWrittenEntryList(_ cursor: inout JSONCursor) -> [PendingEntry]? {
        var entries: [PendingEntry] = []
        if !cursor.isNext("]") { entries.reserveCapacity(lines(in: cursor.bytes, from: cursor.position, starting: "        {\"added_at\": \"", atLeast: 100)) }
        var addedAt = RepeatedDate(), addedBy = RepeatedText(), note = RepeatedText(), variant = RepeatedText()
        let complete = scanWrittenEntries(&cursor) { fields in
            guard let date = addedAt.read(fields.addedAt), let addedBy = addedBy.read(fields.addedBy), let note = note.read(fields.note),
                  let subject = RepeatedText.text(fields.subject), let variant = variant.read(fields.variant) else { return false }
            entries.append(PendingEntry(subject: subject, variant: variant, note: note, addedBy: addedBy, addedAt: date))
            return true
        }
        return complete ? entries : nil
    }

    /// Whether the entries from just after `[` are exactly the writer's and each passes validation
    /// (a valid subject, one of `variants`); read without keeping them, the cursor past them when so.
    ///
    /// A transaction that copies an experiment's bytes never needs its entries, only the certainty
    /// that the store is valid: this checks what `StoreValidator` checks of an entry, without a
    /// `String` per subject or a dictionary slot.
    static func checkWrittenEntries(_ cursor: inout JSONCursor, variants: [String]) -> Bool {
        scanValidWrittenEntries(&cursor, variants: variants) { subject, _ in RepeatedText.isValidSubject(subject) }
    }

    /// The entries from just after `[` as subject to variant index, when they are exactly the
    /// writer's and each passes validation as `checkWrittenEntries` checks it; nil, with the cursor
    /// where it was, otherwise.
    ///
    /// What deciding reads of a whitelist (`CompiledExperiment(_:listed:)`): a dictionary slot and
    /// the subject an entry, sized once from the lines, with no note, operator or date kept.
    static func readWrittenEntryIndices(_ cursor: inout JSONCursor, variants: [String]) -> [SubjectID: Int32]? {
        var listed: [SubjectID: Int32] = [:]
        if !cursor.isNext("]") { listed.reserveCapacity(lines(in: cursor.bytes, from: cursor.position, starting: "        {\"added_at\": \"", atLeast: 100)) }
        let complete = scanValidWrittenEntries(&cursor, variants: variants) { subject, index in
            guard RepeatedText.isValidSubject(subject), let text = RepeatedText.text(subject) else { return false }
            // Strictly ascending subjects are distinct, so this never replaces an entry.
            listed[SubjectID(text)] = index
            return true
        }
        return complete ? listed : nil
    }

    /// Walks the writer's entries (`scanWrittenEntries`) checking the fields `StoreValidator` and the
    /// fast reader check besides the subject (a date of the store's form, readable strings, a variant
    /// among `variants`), handing each subject as written and its variant's index to `entry`.
    private static func scanValidWrittenEntries(_ cursor: inout JSONCursor, variants: [String], _ entry: (PlainText, Int32) -> Bool) -> Bool {
        var addedAt = RepeatedDate(), addedBy = RepeatedText(), note = RepeatedText(), variant = RepeatedText()
        var index: Int32 = -1
        return scanWrittenEntries(&cursor) { fields in
            guard addedAt.read(fields.addedAt) != nil, addedBy.read(fields.addedBy) != nil, note.read(fields.note) != nil else { return false }
            if index < 0 || !variant.repeats(fields.variant) {
                guard let name = variant.read(fields.variant) else { return false }
                index = variants.firstIndex(of: name).map(Int32.init) ?? -1
            }
            return index >= 0 && entry(fields.subject, index)
        }
    }

    /// One entry's fields as they sit in the file: the date's 20 bytes and the strings' contents.
    struct WrittenFields {
        var addedAt: UnsafeBufferPointer<UInt8>
        var addedBy: PlainText
        var note: PlainText
        var subject: PlainText
        var variant: PlainText
    }

    /// Walks entries exactly in the writer's line form (fields in order, strings without escapes,
    /// subjects strictly ascending, exact separators) from just after `[` to the closing bracket's
    /// line, handing each to `entry`; false, with the cursor where it was, at the first byte that
    /// differs or when `entry` answers false.
    private static func scanWrittenEntries(_ cursor: inout JSONCursor, _ entry: (WrittenFields) -> Bool) -> Bool {
        let start = cursor.position
        if cursor.isNext("]") { return true }
        var previous: WrittenFields?
        repeat {
            // A field with the previous entry's bytes is handed on as that entry's (same buffer, no rescan).
            guard cursor.consumeExactly(StoreLayout.entrySeparator(first: previous == nil)),
                  cursor.consumeExactly("{\"added_at\": \""), let addedAt = cursor.take(StoreDate.length),
                  cursor.consumeExactly("\", \"added_by\": "), let addedBy = cursor.plainStringContent(repeating: previous?.addedBy),
                  cursor.consumeExactly(", \"note\": "), let note = cursor.plainStringContent(repeating: previous?.note),
                  cursor.consumeExactly(", \"subject\": "), let subject = cursor.plainStringContent(),
                  previous.map({ ascending($0.subject.bytes, subject.bytes) }) ?? true,
                  cursor.consumeExactly(", \"variant\": "), let variant = cursor.plainStringContent(repeating: previous?.variant),
                  cursor.consumeExactly("}"),
                  case let fields = WrittenFields(addedAt: addedAt, addedBy: addedBy, note: note, subject: subject, variant: variant),
                  entry(fields)
            else {
                cursor.rewind(to: start)
                return false
            }
            previous = fields
        } while cursor.isNext(",")
        guard cursor.isNext("\n      ]") else {
            cursor.rewind(to: start)
            return false
        }
        return true
    }

    /// How many consecutive lines after the next line break begin with `prefix` and are at least
    /// `minimum` bytes long (a record of the writer's: no shorter line can be one): a collection's
    /// size, found with `memchr` at a small fraction of the cost of reading the records, so it is
    /// allocated once — and never more than the bytes could hold, whatever the file says.
    static func lines(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, starting prefix: StaticString, atLeast minimum: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count, var newline = memchr(base + start, 0x0A, bytes.count - start)
            .map({ base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }) else { return 0 }
        let length = prefix.utf8CodeUnitCount
        var count = 0
        while newline + 1 + length <= bytes.count, memcmp(base + newline + 1, prefix.utf8Start, length) == 0 {
            let next = memchr(base + newline + 1, 0x0A, bytes.count - newline - 1)
                .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            guard next - newline - 1 >= minimum else { break }
            count += 1
            newline = next
        }
        return count
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
