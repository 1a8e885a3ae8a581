import Foundation

extension WhitelistEntry: Codable {
    enum CodingKeys: String, CodingKey {
        case subject, variant, note
        case addedBy = "added_by", addedAt = "added_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subject = try container.decode(String.self, forKey: .subject)
        variant = try container.decode(String.self, forKey: .variant)
        note = try container.decode(String.self, forKey: .note)
        addedBy = try container.decode(String.self, forKey: .addedBy)
        addedAt = try container.decodeDate(forKey: .addedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject, forKey: .subject)
        try container.encode(variant, forKey: .variant)
        try container.encode(note, forKey: .note)
        try container.encode(addedBy, forKey: .addedBy)
        try container.encode(addedAt, forKey: .addedAt)
    }
}

// MARK: - The fast reader (`StoreReader`)

extension StoreReader {
    /// The entries by subject; nil on a repeated subject (JSONDecoder names it).
    ///
    /// Entries exactly in the writer's form are read by `readWrittenEntries` (and their byte range
    /// noted in `writtenEntries`), any others field by field. They are read into an array first
    /// so the dictionary is sized once instead of re-hashing every subject at each doubling.
    static func readWhitelist(_ cursor: inout JSONCursor, writtenEntries: inout Range<Int>?) -> [SubjectID: WhitelistEntry]? {
        guard cursor.consume(UInt8(ascii: "[")) else { return nil }
        let start = cursor.position
        let entries: [WhitelistEntry]
        if let written = readWrittenEntries(&cursor) {
            writtenEntries = start..<cursor.position
            guard cursor.consume(UInt8(ascii: "]")) else { return nil }
            entries = written
        } else {
            var read: [WhitelistEntry] = []
            let complete = readElements(&cursor, opened: true) { cursor in
                guard let entry = readWhitelistEntry(&cursor) else { return false }
                read.append(entry)
                return true
            }
            guard complete else { return nil }
            entries = read
        }
        var whitelist = [SubjectID: WhitelistEntry](minimumCapacity: entries.count)
        for entry in entries where whitelist.updateValue(entry, forKey: SubjectID(entry.subject)) != nil { return nil }
        return whitelist
    }

    static func readWhitelistEntry(_ cursor: inout JSONCursor) -> WhitelistEntry? {
        var subject: String?, variant: String?, note: String?, addedBy: String?, addedAt: Date?
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {  // in the order the writer puts them
            case "added_at": return once(&addedAt, date(&cursor))
            case "added_by": return once(&addedBy, cursor.string())
            case "note": return once(&note, cursor.string())
            case "subject": return once(&subject, cursor.string())
            case "variant": return once(&variant, cursor.string())
            default: return cursor.skipValue()
            }
        }
        guard complete, let subject, let variant, let note, let addedBy, let addedAt else { return nil }
        return WhitelistEntry(subject: subject, variant: variant, note: note, addedBy: addedBy, addedAt: addedAt)
    }

    /// Whitelist entries exactly as the writer writes them, from just after `[` up to the closing
    /// bracket's line; nil, with the cursor where it was, at the first byte that differs.
    ///
    /// This is how a save recognises an experiment it may copy byte for byte: its entries match the
    /// writer's line form exactly (`StoreLayout.WhitelistLine`: fields in order, strings without
    /// escapes, dates in the fixed form, subjects strictly ascending, exact separators), and its
    /// other lines equal a fresh encoding (`StoreWriter.writtenSpan`). Anything else is encoded again.
    static func readWrittenEntries(_ cursor: inout JSONCursor) -> [WhitelistEntry]? {
        let start = cursor.position
        var entries: [WhitelistEntry] = []
        if cursor.isNext("]") { return entries }
        var previous: UnsafeBufferPointer<UInt8>?
        repeat {
            guard cursor.consumeExactly(StoreLayout.entrySeparator(first: entries.isEmpty)),
                  cursor.consumeExactly(StoreLayout.WhitelistLine.addedAt), let addedAt = writtenDate(&cursor),
                  cursor.consumeExactly(StoreLayout.WhitelistLine.addedBy), let addedBy = cursor.plainStringHere(),
                  cursor.consumeExactly(StoreLayout.WhitelistLine.note), let note = cursor.plainStringHere(),
                  cursor.consumeExactly(StoreLayout.WhitelistLine.subject), let subject = cursor.plainStringHere(),
                  previous.map({ SubjectOrder.precedes($0, subject.bytes) }) ?? true,
                  cursor.consumeExactly(StoreLayout.WhitelistLine.variant), let variant = cursor.plainStringHere(),
                  cursor.consumeExactly(StoreLayout.WhitelistLine.end)
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

    /// A quoted 20-byte date exactly here, quotes included.
    static func writtenDate(_ cursor: inout JSONCursor) -> Date? {
        guard cursor.consumeExactly("\""), let text = cursor.take(StoreDate.length), let seconds = StoreDate.seconds(parsing: text),
              cursor.consumeExactly("\"") else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }
}

// MARK: - Validation (`StoreValidator`)

extension StoreValidator {
    /// The entries naming an invalid subject or a missing variant, in subject order.
    static func whitelistProblems(_ whitelist: [SubjectID: WhitelistEntry], variants names: [String], at path: String) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        // Check every entry in storage order and sort only the faulty ones, for messages in subject order.
        let faulty = whitelist.values.filter { !Identifier.isValidSubject($0.subject) || !names.contains($0.variant) }
        for entry in SubjectOrder.sorted(faulty) {
            let entryPath = "\(path).whitelist[subject=\(quoted(entry.subject))]"
            if !Identifier.isValidSubject(entry.subject) {
                problems.append(StoreProblem(entryPath + ".subject", "must be 1–256 characters without control characters"))
            }
            if !names.contains(entry.variant) { problems.append(StoreProblem(entryPath + ".variant", "`\(entry.variant)` is not one of the variants")) }
        }
        return problems
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { Identifier.isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }
}
