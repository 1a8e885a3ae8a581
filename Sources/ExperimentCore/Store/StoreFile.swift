import Foundation

/// The JSON store on disk: validated reads and locked, atomic, conflict-checked transactions.
public struct StoreFile: Sendable {
    /// The path as given (it may be a symlink; writes go through to its target).
    public let path: String
    /// How long a transaction waits for another writer's lock before giving up.
    public var lockTimeout: Double

    public init(path: String, lockTimeout: Double = 10) {
        self.path = path
        self.lockTimeout = lockTimeout
    }

    /// Reads and validates the store.
    public func load() throws(StoreError) -> StoreSnapshot {
        let target = FileSystem.resolvingLinks(path)
        guard let data = try readBytes(target) else { throw .missing(path: path) }
        return try decode(data)
    }

    /// A cheap token that changes whenever the file is replaced; nil when it does not exist.
    public func fingerprint() -> StoreFingerprint? {
        FileSystem.fingerprint(FileSystem.resolvingLinks(path)).map(StoreFingerprint.init)
    }

    /// Runs `body` on the current store under an exclusive lock and saves what it leaves.
    ///
    /// Re-reads the file under the lock, validates it (an invalid store is never overwritten),
    /// applies `body`, validates the result, and replaces the file atomically only when its bytes
    /// change. Errors thrown by `body` leave the file untouched.
    public func update<T>(createIfMissing: Bool = false, _ body: (inout StoreSnapshot) throws -> T) throws -> T {
        try transaction(createIfMissing: createIfMissing, changed: nil, body)
    }

    /// Applies one change in its own transaction (see `update`).
    ///
    /// The store read under the lock was validated whole; after the change only the experiment
    /// it names, the history it appends and the revision are validated again.
    @discardableResult
    public func apply(_ change: Change, expectedRevision: Int? = nil, context: ChangeContext) throws -> ChangeOutcome {
        var createIfMissing = false
        if case .create = change { createIfMissing = true }
        return try transaction(createIfMissing: createIfMissing, changed: [change.experimentKey]) { snapshot in
            try snapshot.apply(change, expectedRevision: expectedRevision, context: context)
        }
    }

    /// `update`, validating after `body` either everything (`changed` nil) or only the experiments named.
    private func transaction<T>(createIfMissing: Bool, changed: Set<String>?, _ body: (inout StoreSnapshot) throws -> T) throws -> T {
        let target = FileSystem.resolvingLinks(path)
        // A missing store is reported before anything (even the lock file) is created beside it.
        guard createIfMissing || FileSystem.fingerprint(target) != nil else { throw StoreError.missing(path: path) }
        let lock: FileLock
        do {
            lock = try FileSystem.lock(target + ".lock", timeout: lockTimeout)
        } catch .timedOut {
            throw StoreError.lockTimeout(path: path, seconds: lockTimeout)
        } catch .failed(let failure) {
            throw FileSystem.fingerprint(target) == nil
                ? StoreError.cannotCreate(path: path, reason: failure.reason) : StoreError.cannotWrite(path: path, reason: failure.reason)
        }
        defer { lock.release() }
        let original = try readBytes(target)
        guard original != nil || createIfMissing else { throw StoreError.missing(path: path) }
        var (snapshot, verbatim) = try original.map { data throws(StoreError) in try StoreFile.read(data, path: path, notingVerbatim: true) }
            ?? (StoreSnapshot(), [:])
        let historyCount = snapshot.history.count
        let result = try body(&snapshot)
        let problems = changed.map { StoreValidator.problems(in: snapshot, changed: $0, historyFrom: historyCount) }
            ?? StoreValidator.problems(in: StoreDocument(snapshot))
        guard problems.isEmpty else { throw StoreError.invalid(path: path, problems: problems) }
        // Experiments a change did not touch are copied as they were written; after an arbitrary body, none are.
        if let changed { for key in changed { verbatim[key] = nil } } else { verbatim = [:] }
        do {
            _ = try FileSystem.replaceAtomically(target, original: original, newMode: 0o644) {
                StoreWriter.write(snapshot, to: &$0, verbatim: verbatim, from: original)
            }
        } catch {
            throw original == nil ? StoreError.cannotCreate(path: path, reason: error.reason) : StoreError.cannotWrite(path: path, reason: error.reason)
        }
        return result
    }

    /// The deterministic bytes of `snapshot` (see `StoreWriter`): sorted keys, experiments by key,
    /// whitelist by subject, one line per variant, whitelist entry and history entry.
    public static func encode(_ snapshot: StoreSnapshot) throws -> Data {
        StoreWriter.data(of: snapshot)
    }

    /// A validated snapshot from the bytes of a store file at `path` (used in messages).
    ///
    /// The one-pass `StoreReader` reads what it plainly understands; anything else goes through
    /// `JSONDecoder`, which either reads it too or explains the problem with its JSON path.
    public static func decode(_ data: Data, path: String) throws(StoreError) -> StoreSnapshot {
        try read(data, path: path, notingVerbatim: false).snapshot
    }

    /// The validated snapshot of `data` and, when asked, where its experiments sit in `data` if the
    /// writer wrote them (what a save may copy; see `StoreReading.verbatim`).
    static func read(_ data: Data, path: String, notingVerbatim: Bool) throws(StoreError) -> (snapshot: StoreSnapshot, verbatim: [String: Range<Int>]) {
        if let reading = StoreReader.reading(from: data, notingVerbatim: notingVerbatim) {
            return (try validated(reading.document, path: path), reading.verbatim)
        }
        return (try validated(foundationDocument(data, path: path), path: path), [:])
    }

    /// The document as `JSONDecoder` reads it, or its first problem with the JSON path.
    static func foundationDocument(_ data: Data, path: String) throws(StoreError) -> StoreDocument {
        do {
            return try StoreCoding.decoder().decode(StoreDocument.self, from: data)
        } catch {
            throw .invalid(path: path, problems: [problem(decoding: error, data: data)])
        }
    }

    /// The snapshot of a decoded document, or every rule it breaks.
    static func validated(_ document: StoreDocument, path: String) throws(StoreError) -> StoreSnapshot {
        let problems = StoreValidator.problems(in: document)
        guard problems.isEmpty else { throw .invalid(path: path, problems: problems) }
        var experiments: [String: Experiment] = [:]
        experiments.reserveCapacity(document.experiments.count)
        for experiment in document.experiments { experiments[experiment.key] = experiment }
        return StoreSnapshot(schemaVersion: document.schemaVersion, revision: document.revision,
                             experiments: experiments, history: document.history)
    }

    private func decode(_ data: Data) throws(StoreError) -> StoreSnapshot {
        try StoreFile.decode(data, path: path)
    }

    private func readBytes(_ target: String) throws(StoreError) -> Data? {
        do {
            return try FileSystem.read(target)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    /// The decoding error as one problem with its JSON path, naming an unsupported schema version first.
    private static func problem(decoding error: any Error, data: Data) -> StoreProblem {
        if let header = try? JSONDecoder().decode(StoreHeader.self, from: data),
           let version = header.schemaVersion, version != StoreSnapshot.currentSchemaVersion {
            return StoreProblem("$.schema_version", "schema version \(version) is not supported; this abconsole reads version \(StoreSnapshot.currentSchemaVersion)")
        }
        switch error as? DecodingError {
        case .typeMismatch(let type, let context):
            return StoreProblem(StoreCoding.path(context.codingPath), "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return StoreProblem(StoreCoding.path(context.codingPath), "expected \(describe(type)), found null")
        case .keyNotFound(let key, let context):
            return StoreProblem(StoreCoding.path(context.codingPath), "missing field `\(key.stringValue)`")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, let problem = IntegerFields.firstProblem(in: data) { return problem }
            let detail = context.underlyingError.map { " (\(($0 as NSError).localizedDescription))" } ?? ""
            let message = context.codingPath.isEmpty ? "not valid JSON\(detail)" : context.debugDescription
            return StoreProblem(StoreCoding.path(context.codingPath), message)
        default:
            return StoreProblem("$", "cannot be decoded: \(error.localizedDescription)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is Date.Type: "an ISO 8601 date such as 2026-01-31T09:30:00Z"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// Identifies one version of the store file; the console polls it to notice outside changes.
public struct StoreFingerprint: Hashable, Sendable {
    let value: FileSystem.Fingerprint
    init(_ value: FileSystem.Fingerprint) { self.value = value }
}
