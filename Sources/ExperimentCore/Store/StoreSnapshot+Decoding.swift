import Foundation

/// Reading a store file's bytes into a validated snapshot: what every reader of the store shares,
/// the console and the subcommands as well as the client library.
extension StoreSnapshot {
    /// A validated snapshot from the bytes of a store file at `path` (used in messages).
    ///
    /// The one-pass `StoreReader` reads what it plainly understands; anything else goes through
    /// `JSONDecoder`, which either reads it too or explains the problem with its JSON path.
    ///
    /// What the Foundation fallback (`JSONDecoder` over the `Codable` conformances in `Records/`) is
    /// still for: reading the valid JSON the fast reader declines (a byte order mark, a repeated
    /// member, deep payloads, dates in other ISO 8601 forms, a trailing comma Foundation tolerates),
    /// and naming the first problem of a broken file with its JSON path (a repeated member among
    /// them, which `JSONDecoder` would read). The fast reader never
    /// decides that a file is invalid; it only says "not mine".
    ///
    /// The whitelists are made dictionaries after the file's bytes are released (when the caller
    /// passes its last reference), so the peak holds the bytes and the entries, then the entries
    /// and their dictionaries, never all three.
    public static func decode(_ data: consuming Data, path: String) throws(StoreError) -> StoreSnapshot {
        try decode(data, path: path, fastPaths: .all)
    }

    /// `decode`, the one-pass reader tried first only when `fastPaths` allows `read`: with it off,
    /// `JSONDecoder` reads every file, the plain path the one-pass reader is checked against.
    package static func decode(_ data: consuming Data, path: String, fastPaths: FastPaths) throws(StoreError) -> StoreSnapshot {
        guard fastPaths.allows(.read), var reading = StoreReader.readingDeferringWhitelists(from: data) else {
            return try validated(foundationDocument(data, path: path), path: path)
        }
        #if DEBUG
        FastPathTrace.note(.read)
        checkAgainstPlainRead(reading, data)
        #endif
        data = Data()
        reading.buildPendingWhitelists()
        return try validated(reading.document, path: path)
    }

    #if DEBUG
    /// The bytes up to which a debug build checks a fast read against `JSONDecoder`'s.
    static let checkedReadSize = 64 << 10

    /// Debug builds: the one-pass reader's document of a small file is the one `JSONDecoder` reads.
    private static func checkAgainstPlainRead(_ reading: StoreReading, _ data: Data) {
        guard data.count <= checkedReadSize, let plain = try? foundationDocument(data, path: "") else { return }
        var fast = reading
        fast.buildPendingWhitelists()
        let (one, two) = (fast.document, plain)
        assert(one.experiments == two.experiments && one.history == two.history && one.revision == two.revision
               && one.schemaVersion == two.schemaVersion && one.unknownFields == two.unknownFields,
               "the one-pass reader and JSONDecoder read a store differently")
    }
    #endif

    /// The validated snapshot of `data` and, when asked, where its experiments sit in `data` if the
    /// writer wrote them (what a save may copy; see `StoreReading.verbatim`).
    /// Given `kept`, the whitelists of the others that the writer wrote, and the history if the
    /// writer wrote it, are checked but left out (see `StoreReader.reading`); `history` then says
    /// where the history's entries are, and the snapshot's history holds none of them.
    package static func read(_ data: Data, path: String, recognising written: StoreReader.WrittenSpan?,
                             keepingEntriesOf kept: Set<String>? = nil) throws(StoreError)
        -> (snapshot: StoreSnapshot, verbatim: [String: Range<Int>], history: WrittenHistory?) {
        if let reading = StoreReader.reading(from: data, recognising: written, keepingEntriesOf: kept) {
            return (try validated(reading.document, path: path), reading.verbatim, reading.history)
        }
        return (try validated(foundationDocument(data, path: path), path: path), [:], nil)
    }

    /// The document as `JSONDecoder` reads it, or its first problem with the JSON path.
    ///
    /// A payload nested deeper than `JSONValue.maxLevels` is named with its path and depth (the
    /// validator names it too when `JSONDecoder` could read it), never "not valid JSON"; so is a
    /// number no reader can keep exactly, and a member named twice in one object.
    package static func foundationDocument(_ data: Data, path: String) throws(StoreError) -> StoreDocument {
        // JSONDecoder would round a number it cannot hold; the fast reader deferred it; both refuse it here.
        if let problem = data.withUnsafeBytes({ JSONDepth.numberProblem(in: $0.bindMemory(to: UInt8.self)) }) {
            throw .invalid(path: path, problems: [problem])
        }
        var document: StoreDocument
        do {
            document = try StoreCoding.decoder().decode(StoreDocument.self, from: data)
        } catch {
            if let problem = data.withUnsafeBytes({ JSONDepth.storeProblem(in: $0.bindMemory(to: UInt8.self)) }) {
                throw .invalid(path: path, problems: [problem])
            }
            throw .invalid(path: path, problems: [problem(decoding: error, data: data)])
        }
        // JSONDecoder keeps one of two members of the same name, where other readers keep the other.
        if let problem = RepeatedMembers.problem(in: data) { throw .invalid(path: path, problems: [problem]) }
        // Payload numbers as written (`1.0`, not the decoder's `1`), so a later save keeps their bytes.
        data.withUnsafeBytes { PayloadTexts.restore(&document, from: $0.bindMemory(to: UInt8.self)) }
        return document
    }

    /// The snapshot of a decoded document, or every rule it breaks.
    package static func validated(_ document: StoreDocument, path: String) throws(StoreError) -> StoreSnapshot {
        let problems = StoreValidator.problems(in: document)
        guard problems.isEmpty else { throw .invalid(path: path, problems: problems) }
        var experiments: [String: Experiment] = [:]
        experiments.reserveCapacity(document.experiments.count)
        for experiment in document.experiments { experiments[experiment.key] = experiment }
        var snapshot = StoreSnapshot(schemaVersion: document.schemaVersion, revision: document.revision,
                                     experiments: experiments, history: document.history)
        snapshot.unknownFields = document.unknownFields
        return snapshot
    }

    /// The decoding error as one problem with its JSON path, naming an unsupported schema version first.
    private static func problem(decoding error: any Error, data: Data) -> StoreProblem {
        if let header = try? JSONDecoder().decode(StoreHeader.self, from: data),
           let version = header.schemaVersion, version != StoreSnapshot.currentSchemaVersion {
            return StoreProblem("$.schema_version", "schema version \(version) is not supported; this abconsole reads version \(StoreSnapshot.currentSchemaVersion)")
        }
        guard let error = error as? DecodingError else { return StoreProblem("$", "cannot be decoded: \(error.localizedDescription)") }
        // At the top level Foundation says only "not valid JSON": name the syntax error or the field instead.
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            if let syntax = JSONSyntax.firstProblem(in: data) {
                if syntax.isConflictMarker { return StoreProblem("$", "git conflict markers at line \(syntax.line): \(JSONSyntax.conflictMarkerAdvice)") }
                return StoreProblem("$", "not valid JSON at \(syntax.text)")
            }
            if let problem = IntegerFields.firstProblem(in: data) { return problem }
            let detail = context.underlyingError.map { " (\(($0 as NSError).localizedDescription))" } ?? ""
            return StoreProblem("$", "not valid JSON\(detail)")
        }
        let (path, problem) = DecodingProblem.describe(error)
        return StoreProblem(path, problem)
    }
}
