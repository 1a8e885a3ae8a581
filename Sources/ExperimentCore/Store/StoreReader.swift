import Foundation

/// What one read of a store file found.
package struct StoreReading {
    package var document: StoreDocument
    /// The byte range of every experiment written exactly as `StoreWriter` writes it, by key: a
    /// save that leaves such an experiment unchanged copies those bytes instead of encoding it.
    package var verbatim: [String: Range<Int>]
    /// The history when the writer wrote it and a transaction left it out of `document` (see
    /// `StoreReader.reading`): checked, counted, and copied by the save; nil when it was read.
    package var history: WrittenHistory?
    /// Whitelists still held as arrays in subject order, by experiment index (see
    /// `StoreReader.readingDeferringWhitelists`); empty otherwise.
    var pending: [(experiment: Int, entries: [PendingEntry])] = []
    /// Whitelists read as subject to variant index, by experiment index (see
    /// `StoreReader.readingListingWhitelists`); empty otherwise.
    var listed: [(experiment: Int, indices: [SubjectID: Int32])] = []
}

/// Reads a store file in one pass over its bytes, for the store's schema only.
///
/// It builds the same `StoreDocument` as `JSONDecoder` without a Codable layer or a date formatter
/// (each record's part is in `Records/<Record>+Record.swift`), and answers nil whenever the file is not
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
            var verbatim: [String: Range<Int>]?, history: WrittenHistory?
            var pending: [(experiment: Int, entries: [PendingEntry])]? = []
            var listed: [(experiment: Int, indices: [SubjectID: Int32])]?
            guard let document = readDocument(&cursor, verbatim: &verbatim, written: nil, kept: nil, history: &history, pending: &pending,
                                              listed: &listed),
                  cursor.isAtEnd() else { return nil }
            return StoreReading(document: document, verbatim: [:], history: nil, pending: pending ?? [])
        }
    }

    /// The document in `data` as deciding reads it: each whitelist the writer wrote is in `listed`
    /// as subject to variant index (the experiment's left empty), and a history the writer wrote is
    /// checked and left out (`history` says how many entries); nil when `JSONDecoder` must read it.
    ///
    /// The entries are checked as the validator checks them, so validating the document judges the
    /// file as validating it whole would; what is left out (notes, operators, dates, the history)
    /// is what deciding never reads.
    package static func readingListingWhitelists(from data: Data) -> StoreReading? {
        data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            var verbatim: [String: Range<Int>]?, history: WrittenHistory?
            var pending: [(experiment: Int, entries: [PendingEntry])]?
            var listed: [(experiment: Int, indices: [SubjectID: Int32])]? = []
            guard let document = readDocument(&cursor, verbatim: &verbatim, written: nil, kept: nil, history: &history, pending: &pending,
                                              listed: &listed),
                  cursor.isAtEnd() else { return nil }
            return StoreReading(document: document, verbatim: [:], history: history, listed: listed ?? [])
        }
    }

    /// The document in `data` and, given `recognising`, which experiments are byte for byte as the
    /// writer writes them (a save's business; a plain load skips checking).
    ///
    /// Given `kept` as well (a transaction changing only those experiments), an experiment the writer
    /// wrote that is not in `kept` comes back with an empty whitelist: its entries are checked as
    /// the validator would check them, but not kept, since the save copies its bytes. So does the
    /// history when the writer wrote it: `document.history` is empty and `history` says where the
    /// entries are and how many (a change only appends). Anything short of that is read whole.
    package static func reading(from data: Data, recognising written: WrittenSpan?, keepingEntriesOf kept: Set<String>? = nil) -> StoreReading? {
        data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            var verbatim: [String: Range<Int>]? = written == nil ? nil : [:]
            let kept = written == nil ? nil : kept
            var pending: [(experiment: Int, entries: [PendingEntry])]?
            var history: WrittenHistory?
            var listed: [(experiment: Int, indices: [SubjectID: Int32])]?
            guard let document = readDocument(&cursor, verbatim: &verbatim, written: written, kept: kept, history: &history, pending: &pending,
                                              listed: &listed),
                  cursor.isAtEnd() else { return nil }
            return StoreReading(document: document, verbatim: verbatim ?? [:], history: history)
        }
    }

    /// The document; with `pending` (not nil), whitelists in the writer's form are left there as arrays by experiment index;
    /// with `listed` (not nil), whitelists in the writer's form are left there as subject to variant index;
    /// with `kept` or `listed` (not nil), a history in the writer's form is left in the file, noted in `writtenHistory`.
    private static func readDocument(_ cursor: inout JSONCursor, verbatim: inout [String: Range<Int>]?, written: WrittenSpan?, kept: Set<String>?,
                                     history writtenHistory: inout WrittenHistory?,
                                     pending: inout [(experiment: Int, entries: [PendingEntry])]?,
                                     listed: inout [(experiment: Int, indices: [SubjectID: Int32])]?) -> StoreDocument? {
        var schemaVersion: Int?, revision: Int?, experiments: [Experiment]?, history: [HistoryEntry]?
        var unknown: [String: JSONValue] = [:]
        var index = 0
        let complete = readObject(&cursor) { cursor, key in
            switch Field(key) {
            case "schema_version": return once(&schemaVersion, cursor.integer())
            case "revision": return once(&revision, cursor.integer())
            case "experiments":
                return once(&experiments, readArray(&cursor) { cursor in
                    defer { index += 1 }
                    var entries: [PendingEntry]?, indices: [SubjectID: Int32]?
                    let experiment = readExperiment(&cursor, verbatim: &verbatim, written: written, kept: kept,
                                                    deferring: pending != nil, deferred: &entries, listing: listed != nil, listed: &indices)
                    if let entries, !entries.isEmpty { pending?.append((index, entries)) }
                    if let indices, !indices.isEmpty { listed?.append((index, indices)) }
                    return experiment
                })
            case "history":
                if kept != nil || listed != nil, history == nil, let checked = checkedWrittenHistory(&cursor) {
                    (writtenHistory, history) = (checked, [])
                    return true
                }
                // One history entry a line in the writer's layout: the array is allocated once.
                let count = lines(in: cursor.bytes, from: cursor.position, starting: "    {\"action\": \"", atLeast: 90)
                return once(&history, readHistoryEntries(&cursor, reserving: count))
            default: return keepUnknown(&unknown, key, &cursor)
            }
        }
        guard complete, let schemaVersion, schemaVersion == StoreSnapshot.currentSchemaVersion,
              let revision, let experiments, let history else { return nil }
        var document = StoreDocument(schemaVersion: schemaVersion, revision: revision, experiments: experiments, history: history)
        document.unknownFields = unknown
        return document
    }

    // MARK: - Structure

    /// Reads `{ "field": value, ... }`, handing each field name to `member`, which reads its value.
    static func readObject(_ cursor: inout JSONCursor, _ member: (inout JSONCursor, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard cursor.consume(UInt8(ascii: "{")) else { return false }
        if cursor.consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = cursor.plainStringBytes(), cursor.consume(UInt8(ascii: ":")), member(&cursor, key) else { return false }
        } while cursor.consume(UInt8(ascii: ","))
        return cursor.consume(UInt8(ascii: "}"))
    }

    /// Reads `[ element, ... ]` (from after the `[` when `opened`), calling `element` for each.
    static func readElements(_ cursor: inout JSONCursor, opened: Bool = false, _ element: (inout JSONCursor) -> Bool) -> Bool {
        guard opened || cursor.consume(UInt8(ascii: "[")) else { return false }
        if cursor.consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&cursor) else { return false }
        } while cursor.consume(UInt8(ascii: ","))
        return cursor.consume(UInt8(ascii: "]"))
    }

    static func readArray<Element>(_ cursor: inout JSONCursor, reserving capacity: Int = 0, _ read: (inout JSONCursor) -> Element?) -> [Element]? {
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
    static func once<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
        guard slot == nil, let value else { return false }
        slot = value
        return true
    }

    /// A string or null (`decodeIfPresent`); nil when it is neither.
    static func optionalString(_ cursor: inout JSONCursor) -> String?? {
        cursor.consume(literal: "null") ? .some(nil) : cursor.string().map { .some($0) }
    }

    /// `optionalString`, reusing `last`'s `String` when the string repeats its bytes.
    static func optionalString(_ cursor: inout JSONCursor, repeating last: inout RepeatedText) -> String?? {
        cursor.consume(literal: "null") ? .some(nil) : last.string(&cursor).map { .some($0) }
    }

    /// A date in exactly the form the store writes; nil for any other form (JSONDecoder decides).
    static func date(_ cursor: inout JSONCursor) -> Date? {
        guard let text = cursor.plainStringBytes(), let seconds = StoreDate.seconds(parsing: text) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// A field name as raw bytes, matched against string literals without building a `String`.
    struct Field: ExpressibleByStringLiteral, Equatable {
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
