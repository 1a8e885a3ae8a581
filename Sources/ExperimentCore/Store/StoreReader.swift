import Foundation

/// Reads a store file in one pass over its bytes, for the store's schema only.
///
/// `JSONDecoder` spent most of a big store's open in its Codable layer and in ISO 8601 dates.
/// This reader builds the same `StoreDocument` directly, and answers nil whenever the file is not
/// plainly a valid store of the current schema — a syntax error, a missing or mistyped field, a
/// repeated member or subject, a date in another form — so that `JSONDecoder` reads it instead and
/// every problem keeps its message and JSON path. A nil is never a verdict, only "ask the other
/// reader"; unknown fields are skipped, as `JSONDecoder` skips them.
package enum StoreReader {
    /// Where an experiment the writer wrote sits in the file (its object and its whitelist entries),
    /// answered by the store side, which knows the writer; nil when its bytes are not the writer's.
    package typealias WrittenSpan = (_ experiment: Experiment, _ bytes: UnsafeBufferPointer<UInt8>,
                                     _ object: Range<Int>, _ entries: Range<Int>) -> Range<Int>?

    /// The document in `data`, or nil when `JSONDecoder` must read it.
    package static func document(from data: Data) -> StoreDocument? {
        reading(from: data, recognising: nil)?.document
    }

    /// The document in `data` with the whitelists the writer wrote left as arrays in `pending`, so
    /// that they become dictionaries (`StoreReading.buildPendingWhitelists`) after the caller has
    /// released the file's bytes; nil when `JSONDecoder` must read it.
    package static func readingDeferringWhitelists(from data: Data) -> StoreReading? {
        data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            var verbatim: [String: Range<Int>]?
            var pending: [(experiment: Int, entries: [WhitelistEntry])]? = []
            guard let document = readDocument(&cursor, verbatim: &verbatim, written: nil, kept: nil, pending: &pending),
                  cursor.isAtEnd() else { return nil }
            return StoreReading(document: document, verbatim: [:], pending: pending ?? [])
        }
    }

    /// The document in `data` and, given `recognising`, which experiments are byte for byte as the
    /// writer writes them (a save's business; a plain load skips checking).
    ///
    /// Given `kept` as well (a transaction changing only those experiments), an experiment the writer
    /// wrote that is not in `kept` comes back with an empty whitelist: its entries are checked as
    /// the validator would check them, but not kept, since the save copies its bytes. Anything
    /// short of that is read whole.
    package static func reading(from data: Data, recognising written: WrittenSpan?, keepingEntriesOf kept: Set<String>? = nil) -> StoreReading? {
        data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            var verbatim: [String: Range<Int>]? = written == nil ? nil : [:]
            let kept = written == nil ? nil : kept
            var pending: [(experiment: Int, entries: [WhitelistEntry])]?
            guard let document = readDocument(&cursor, verbatim: &verbatim, written: written, kept: kept, pending: &pending),
                  cursor.isAtEnd() else { return nil }
            return StoreReading(document: document, verbatim: verbatim ?? [:])
        }
    }

    /// The document; with `pending` (not nil), whitelists in the writer's form are left there as arrays by experiment index.
    private static func readDocument(_ cursor: inout JSONCursor, verbatim: inout [String: Range<Int>]?, written: WrittenSpan?, kept: Set<String>?,
                                     pending: inout [(experiment: Int, entries: [WhitelistEntry])]?) -> StoreDocument? {
        var schemaVersion: Int?, revision: Int?, experiments: [Experiment]?, history: [HistoryEntry]?
        var index = 0
        let complete = readObject(&cursor) { cursor, key in
            switch Field(key) {
            case "schema_version": return once(&schemaVersion, cursor.integer())
            case "revision": return once(&revision, cursor.integer())
            case "experiments":
                return once(&experiments, readArray(&cursor) { cursor in
                    defer { index += 1 }
                    var entries: [WhitelistEntry]?
                    let experiment = readExperiment(&cursor, verbatim: &verbatim, written: written, kept: kept,
                                                    deferring: pending != nil, deferred: &entries)
                    if let entries, !entries.isEmpty { pending?.append((index, entries)) }
                    return experiment
                })
            case "history":
                // One history entry a line in the writer's layout: the array is allocated once.
                let count = lines(in: cursor.bytes, from: cursor.position, starting: "    {\"action\": \"", atLeast: 90)
                return once(&history, readArray(&cursor, reserving: count, readHistoryEntry))
            default: return cursor.skipValue()
            }
        }
        guard complete, let schemaVersion, schemaVersion == StoreSnapshot.currentSchemaVersion,
              let revision, let experiments, let history else { return nil }
        return StoreDocument(schemaVersion: schemaVersion, revision: revision, experiments: experiments, history: history)
    }

    /// One experiment; `deferring`, its whitelist in the writer's form is left in `deferred` as an array (the experiment's is empty).
    private static func readExperiment(_ cursor: inout JSONCursor, verbatim: inout [String: Range<Int>]?, written: WrittenSpan?, kept: Set<String>?,
                                       deferring: Bool, deferred: inout [WhitelistEntry]?) -> Experiment? {
        let start = cursor.nextTokenPosition()
        var writtenEntries: Range<Int>?, omitted = false
        var key: String?, type: SubjectType?, status: ExperimentStatus?, salt: String?, control: String?
        var winner: String??, description: String?, revision: Int?, createdAt: Date?, updatedAt: Date?
        var updatedBy: String?, variants: [Variant]?, whitelist: [SubjectID: WhitelistEntry]?
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "key": return once(&key, cursor.string())
            case "type": return once(&type, cursor.string().flatMap(SubjectType.init(rawValue:)))
            case "status": return once(&status, cursor.string().flatMap(ExperimentStatus.init(rawValue:)))
            case "salt": return once(&salt, cursor.string())
            case "control": return once(&control, cursor.string())
            case "winner": return once(&winner, optionalString(&cursor))
            case "description": return once(&description, cursor.string())
            case "revision": return once(&revision, cursor.integer())
            case "created_at": return once(&createdAt, date(&cursor))
            case "updated_at": return once(&updatedAt, date(&cursor))
            case "updated_by": return once(&updatedBy, cursor.string())
            case "variants": return once(&variants, readArray(&cursor, readVariant))
            case "whitelist":
                if let kept, whitelist == nil, let key, !kept.contains(key), let variants,
                   let entries = checkedWrittenEntries(&cursor, variants: variants.map(\.name)) {
                    (writtenEntries, omitted, whitelist) = (entries, true, [:])
                    return true
                }
                if deferring, whitelist == nil, let entries = bracketed(&cursor, readWrittenEntryList) {
                    (deferred, whitelist) = (entries, [:])
                    return true
                }
                return once(&whitelist, readWhitelist(&cursor, writtenEntries: &writtenEntries))
            default: return cursor.skipValue()
            }
        }
        guard complete, let key, let type, let status, let salt, let control, let description, let revision,
              let createdAt, let updatedAt, let updatedBy, let variants, let whitelist else { return nil }
        let experiment = Experiment(key: key, type: type, status: status, salt: salt, control: control, winner: winner ?? nil,
                                    description: description, revision: revision, createdAt: createdAt, updatedAt: updatedAt,
                                    updatedBy: updatedBy, variants: variants, whitelist: whitelist)
        if let written, let writtenEntries,
           let span = written(experiment, cursor.bytes, start..<cursor.position, writtenEntries) {
            verbatim?[key] = span
        } else if omitted {
            // Not the writer's bytes after all, so the save encodes it: read it again, entries and all.
            cursor.rewind(to: start)
            return readExperiment(&cursor, verbatim: &verbatim, written: written, kept: nil, deferring: false, deferred: &deferred)
        }
        return experiment
    }

    private static func readVariant(_ cursor: inout JSONCursor) -> Variant? {
        var name: String?, weight: Weight?, ranges: [BucketRange]?, payload: JSONValue?
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "name": return once(&name, cursor.string())
            case "weight": return once(&weight, cursor.number().flatMap(Weight.init(percent:)))
            case "ranges": return once(&ranges, readArray(&cursor, readRange))
            case "payload": return once(&payload, cursor.value())
            default: return cursor.skipValue()
            }
        }
        guard complete, let name, let weight, let ranges else { return nil }
        return Variant(name: name, weight: weight, ranges: ranges, payload: payload == .null ? nil : payload)
    }

    private static func readRange(_ cursor: inout JSONCursor) -> BucketRange? {
        guard cursor.consume(UInt8(ascii: "[")), let start = cursor.integer(), cursor.consume(UInt8(ascii: ",")),
              let end = cursor.integer(), cursor.consume(UInt8(ascii: "]")) else { return nil }
        return BucketRange(start, end)
    }

    /// The entries by subject; nil on a repeated subject (JSONDecoder names it).
    ///
    /// Entries exactly in the writer's form are read by `readWrittenEntries` straight into a
    /// dictionary sized from their line count (and their byte range noted in `writtenEntries`), any
    /// others field by field into an array first, so the dictionary is sized once: growing it while
    /// reading re-hashed every subject at each doubling.
    private static func readWhitelist(_ cursor: inout JSONCursor, writtenEntries: inout Range<Int>?) -> [SubjectID: WhitelistEntry]? {
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
    private static func checkedWrittenEntries(_ cursor: inout JSONCursor, variants: [String]) -> Range<Int>? {
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
    private static func bracketed<Value>(_ cursor: inout JSONCursor, _ read: (inout JSONCursor) -> Value?) -> Value? {
        let before = cursor.position
        guard cursor.consume(UInt8(ascii: "[")), let value = read(&cursor), cursor.consume(UInt8(ascii: "]")) else {
            cursor.rewind(to: before)
            return nil
        }
        return value
    }

    private static func readWhitelistEntry(_ cursor: inout JSONCursor) -> WhitelistEntry? {
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

    private static func readHistoryEntry(_ cursor: inout JSONCursor) -> HistoryEntry? {
        var at: Date?, operatorName: String?, experiment: String?, action: HistoryAction?, before: String??, after: String??
        let complete = readObject(&cursor) { cursor, field in
            switch Field(field) {
            case "at": return once(&at, date(&cursor))
            case "operator": return once(&operatorName, cursor.string())
            case "experiment": return once(&experiment, cursor.string())
            case "action": return once(&action, cursor.string().flatMap(HistoryAction.init(rawValue:)))
            case "before": return once(&before, optionalString(&cursor))
            case "after": return once(&after, optionalString(&cursor))
            default: return cursor.skipValue()
            }
        }
        guard complete, let at, let operatorName, let experiment, let action else { return nil }
        return HistoryEntry(at: at, operatorName: operatorName, experiment: experiment, action: action,
                            before: before ?? nil, after: after ?? nil)
    }

    // MARK: - Structure

    /// Reads `{ "field": value, ... }`, handing each field name to `member`, which reads its value.
    private static func readObject(_ cursor: inout JSONCursor, _ member: (inout JSONCursor, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard cursor.consume(UInt8(ascii: "{")) else { return false }
        if cursor.consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = cursor.plainStringBytes(), cursor.consume(UInt8(ascii: ":")), member(&cursor, key) else { return false }
        } while cursor.consume(UInt8(ascii: ","))
        return cursor.consume(UInt8(ascii: "}"))
    }

    /// Reads `[ element, ... ]` (from after the `[` when `opened`), calling `element` for each.
    private static func readElements(_ cursor: inout JSONCursor, opened: Bool = false, _ element: (inout JSONCursor) -> Bool) -> Bool {
        guard opened || cursor.consume(UInt8(ascii: "[")) else { return false }
        if cursor.consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&cursor) else { return false }
        } while cursor.consume(UInt8(ascii: ","))
        return cursor.consume(UInt8(ascii: "]"))
    }

    private static func readArray<Element>(_ cursor: inout JSONCursor, reserving capacity: Int = 0, _ read: (inout JSONCursor) -> Element?) -> [Element]? {
        var elements: [Element] = []
        elements.reserveCapacity(capacity)
        let complete = readElements(&cursor) { cursor in
            guard let element = read(&cursor) else { return false }
            elements.append(element)
            return true
        }
        return complete ? elements : nil
    }

    /// Stores a field's value the first time it is seen; false when it is missing, mistyped or repeated.
    private static func once<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
        guard slot == nil, let value else { return false }
        slot = value
        return true
    }

    /// A string or null (`decodeIfPresent`); nil when it is neither.
    private static func optionalString(_ cursor: inout JSONCursor) -> String?? {
        cursor.consume(literal: "null") ? .some(nil) : cursor.string().map { .some($0) }
    }

    /// A date in exactly the form the store writes; nil for any other form (JSONDecoder decides).
    static func date(_ cursor: inout JSONCursor) -> Date? {
        guard let text = cursor.plainStringBytes(), let seconds = StoreDate.seconds(parsing: text) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// A field name as raw bytes, matched against string literals without building a `String`.
    private struct Field: ExpressibleByStringLiteral, Equatable {
        let bytes: UnsafeBufferPointer<UInt8>

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        init(stringLiteral literal: StaticString) {
            bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        }

        static func == (lhs: Field, rhs: Field) -> Bool {
            guard lhs.bytes.count == rhs.bytes.count else { return false }
            guard let left = lhs.bytes.baseAddress, let right = rhs.bytes.baseAddress else { return lhs.bytes.isEmpty }
            return memcmp(left, right, lhs.bytes.count) == 0
        }
    }
}
