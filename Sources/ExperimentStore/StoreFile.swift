import ExperimentCore
import ExperimentEditing
import Foundation

/// The JSON store on disk: validated reads and locked, atomic, conflict-checked transactions.
public struct StoreFile: Sendable {
    /// The path as given (it may be a symlink; writes go through to its target).
    public let path: String
    /// How long a transaction waits for another writer's lock before giving up.
    public var lockTimeout: Double
    /// The byte-level fast paths its reads and saves may take, as the process's entry point chose them.
    package let fastPaths: FastPaths

    /// The store at `path`, every fast path on.
    public init(path: String, lockTimeout: Double = 10) {
        self.init(path: path, lockTimeout: lockTimeout, fastPaths: .all)
    }

    /// The store at `path`, its reads and saves taking the fast paths `fastPaths` allows.
    package init(path: String, lockTimeout: Double = 10, fastPaths: FastPaths) {
        self.path = path
        self.lockTimeout = lockTimeout
        self.fastPaths = fastPaths
    }

    /// Reads and validates the store.
    public func load() throws(StoreError) -> StoreSnapshot {
        let target = FileSystem.resolvingLinks(path)
        guard let data = try readBytes(target) else { throw .missing(path: path) }
        return try StoreSnapshot.decode(consume data, path: path, fastPaths: fastPaths)
    }

    /// Reads and validates the store as a server holds it (`DecidingStore`): whitelists as subject
    /// to variant index, no history; the same verdict and problems as `load()`.
    package func loadForDeciding() throws(StoreError) -> DecidingStore {
        let target = FileSystem.resolvingLinks(path)
        guard let data = try readBytes(target) else { throw .missing(path: path) }
        return try DecidingStore.decode(consume data, path: path)
    }

    /// The file git tracks for this store: the path made absolute with every symlink resolved, as the
    /// commit of `--commit-changes`, `git-setup` and the console's git status all name it.
    public var gitPath: String { Self.resolvedAbsolute(path) }

    /// `path` made absolute (against the working directory) with every symlink in it resolved.
    public static func resolvedAbsolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.resolvingSymlinksInPath().path
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
    public func update<T>(createIfMissing: Bool = false, _ body: (inout StoreSnapshot) throws(ExperimentError) -> T) throws(StoreError) -> T {
        try transaction(createIfMissing: createIfMissing, changed: nil, body).result
    }

    /// Applies one change in its own transaction (see `update`).
    ///
    /// The store read under the lock was validated whole; after the change only the experiment
    /// it names, the history it appends and the revision are validated again.
    @discardableResult
    public func apply(_ change: Change, expectedRevision: Int? = nil, context: ChangeContext) throws(StoreError) -> ChangeOutcome {
        try apply(change, expectedRevision: expectedRevision, context: context, readingBack: false).result
    }

    /// `apply`, then with `git-setup --commit-changes` the store alone committed before the lock is
    /// released (`GitCommands.commitStoreIfAsked`): one change, one commit, holding that change only.
    public func applyCommitting(_ change: Change, expectedRevision: Int? = nil, context: ChangeContext) throws(StoreError) -> CommittedChange {
        let applied = try apply(change, expectedRevision: expectedRevision, context: context, readingBack: false, committing: true)
        return CommittedChange(outcome: applied.result, notCommitted: applied.notCommitted)
    }

    /// `apply`, returning also the store as the change left it and that file's fingerprint; with
    /// `committing`, committed as `applyCommitting` commits.
    ///
    /// Both are taken before the lock is released, so no other writer's save can come between the
    /// store a caller shows and the fingerprint it watches for outside changes (the console's reload).
    public func applyAndRead(_ change: Change, expectedRevision: Int? = nil, context: ChangeContext, committing: Bool = false) throws(StoreError) -> SavedStore {
        let applied = try apply(change, expectedRevision: expectedRevision, context: context, readingBack: true, committing: committing)
        guard let written = applied.written else { throw .missing(path: path) }
        // The bytes were read under the lock; decoding them needs no lock.
        return SavedStore(outcome: applied.result, snapshot: try StoreSnapshot.decode(written.bytes, path: path, fastPaths: fastPaths), fingerprint: written.fingerprint,
                          notCommitted: applied.notCommitted)
    }

    private func apply(_ change: Change, expectedRevision: Int?, context: ChangeContext, readingBack: Bool,
                       committing: Bool = false) throws(StoreError) -> Transacted<ChangeOutcome> {
        var createIfMissing = false
        if case .create = change { createIfMissing = true }
        return try transaction(createIfMissing: createIfMissing, changed: [change.experimentKey], splicing: change.whitelistSubjects,
                               readingBack: readingBack, committingAs: committing ? context.operatorName : nil) {
            (snapshot: inout StoreSnapshot) throws(ExperimentError) in
            try snapshot.apply(change, expectedRevision: expectedRevision, context: context)
        }
    }

    /// The store file's bytes and fingerprint, read together under a transaction's lock.
    private struct WrittenFile {
        let bytes: Data
        let fingerprint: StoreFingerprint?
    }

    /// What a transaction answers: its body's result, the file read back, and why a commit asked for was not made.
    private struct Transacted<T> {
        var result: T
        var written: WrittenFile?
        var notCommitted: String?
    }

    /// `update`, validating after `body` either everything (`changed` nil) or only the experiments named;
    /// with `readingBack`, the file as the transaction left it is read before the lock is released;
    /// with `committingAs` (an operator), the history entries the body added are committed before it is.
    private func transaction<T>(createIfMissing: Bool, changed: Set<String>?, splicing subjects: [String]? = nil, readingBack: Bool = false,
                                committingAs committer: String? = nil,
                                _ body: (inout StoreSnapshot) throws(ExperimentError) -> T) throws(StoreError) -> Transacted<T> {
        let target = FileSystem.resolvingLinks(path)
        // Whatever is refused is refused before anything (even the lock file) is created beside it.
        switch FileSystem.kind(target) {
        case .missing: guard createIfMissing else { throw .missing(path: path) }
        case .regular(writable: true): break
        case .regular(writable: false): throw .cannotWrite(path: path, reason: "permission denied: you may not write the store file itself")
        case .other(let failure): throw .unreadable(path: path, reason: failure.reason)
        }
        // Outside any git work tree there is nothing to commit, and the history before the change need not be kept.
        let committer = committer.flatMap { Self.mayCommit(target) ? $0 : nil }
        let plan = SavePlan(changed: changed, subjects: subjects, keepingAdded: committer != nil, fastPaths: fastPaths)
        let deadline = Date().addingTimeInterval(lockTimeout)
        let lock: FileLock
        let storeLock: FileLock?
        do {
            lock = try FileSystem.lock(target + ".lock", until: deadline, like: FileSystem.ownership(target))
            storeLock = try FileSystem.lockExisting(target, until: deadline)
        } catch {
            switch error {
            case .timedOut:
                throw .lockTimeout(path: path, seconds: lockTimeout)
            case .failed(let failure):
                throw FileSystem.fingerprint(target) == nil
                    ? .cannotCreate(path: path, reason: failure.reason) : .cannotWrite(path: path, reason: failure.reason)
            }
        }
        defer {
            storeLock?.release()
            lock.release()
        }
        let original = try readBytes(target)
        guard original != nil || createIfMissing else { throw .missing(path: path) }
        let (result, save) = try plan.run(original, path: path, body)
        do {
            if !save.noChange {
                _ = try FileSystem.replaceAtomically(target, original: original, newMode: 0o644) { save.write(to: &$0, from: original) }
                #if DEBUG
                checkAgainstPlainSave(target, save)
                #endif
            }
        } catch {
            throw original == nil ? .cannotCreate(path: path, reason: error.reason) : .cannotWrite(path: path, reason: error.reason)
        }
        // Under the lock, so no other writer's change joins this commit or lands between the write and it.
        var notCommitted: String?
        if let committer, !save.added.isEmpty { notCommitted = commit(save.added, target: target, operatorName: committer) }
        guard readingBack else { return Transacted(result: result, notCommitted: notCommitted) }
        let fingerprint = FileSystem.fingerprint(target).map(StoreFingerprint.init)
        return Transacted(result: result, written: try readBytes(target).map { WrittenFile(bytes: $0, fingerprint: fingerprint) },
                          notCommitted: notCommitted)
    }

    #if DEBUG
    /// Debug builds: a small store a save wrote copying bytes (`StoreSave.verbatim`, `.history`,
    /// `.spliced`) is valid and exactly the bytes the writer encodes for it, as the plain save writes them.
    private func checkAgainstPlainSave(_ target: String, _ save: StoreSave) {
        guard !save.verbatim.isEmpty || save.history != nil || !save.spliced.isEmpty,
              let written = try? FileSystem.read(target), written.count <= 64 << 10 else { return }
        guard let plain = try? StoreSnapshot.decode(written, path: path, fastPaths: .all) else {
            return assertionFailure("a save copying bytes wrote a store that does not read")
        }
        assert(StoreWriter.data(of: plain) == written, "a save copying bytes wrote other bytes than the writer encodes")
        // An experiment the save encoded reads back as the writer's bytes of its value (whitelist order is the writer's).
        func bytes(_ experiment: Experiment?) -> Data? {
            experiment.map { experiment in
                var writer = ByteWriter(capacity: 1_024), dates = StoreWriter.DateCache()
                StoreWriter.append(experiment, to: &writer, dates: &dates)
                return writer.data()
            }
        }
        assert(plain.experiments.allSatisfy { key, experiment in
            save.verbatim[key] != nil || save.spliced[key] != nil || bytes(experiment) == bytes(save.snapshot.experiments[key])
        }, "a save copying bytes wrote another value of an experiment it encoded")
    }
    #endif

    /// Whether the store file `target` lies in a git work tree (a file-system check, no git run).
    private static func mayCommit(_ target: String) -> Bool {
        #if os(Linux) || os(macOS)
        GitCommands.mayBeInRepository(FileSystem.directory(of: target))
        #else
        false
        #endif
    }

    /// Commits the store file `target` for the history entries `added` (`git-setup --commit-changes`); why not, if it was not.
    private func commit(_ added: [HistoryEntry], target: String, operatorName: String) -> String? {
        #if os(Linux) || os(macOS)
        let subject = added.map { "\($0.action.rawValue) \($0.experiment): \($0.changeText)" }.joined(separator: "; ")
        return GitCommands.commitStoreIfAsked(Self.resolvedAbsolute(target), subject: subject, operatorName: operatorName)
        #else
        return nil  // no git on this platform
        #endif
    }

    /// The deterministic bytes of `snapshot` (see `StoreWriter`): sorted keys, experiments by key,
    /// whitelist by subject, one line per variant, whitelist entry and history entry.
    public static func encode(_ snapshot: StoreSnapshot) -> Data {
        StoreWriter.data(of: snapshot)
    }

    /// A validated snapshot from the bytes of a store file at `path` (see `StoreSnapshot.decode`).
    public static func decode(_ data: Data, path: String) throws(StoreError) -> StoreSnapshot {
        try StoreSnapshot.decode(data, path: path)
    }

    private func readBytes(_ target: String) throws(StoreError) -> Data? {
        do {
            return try FileSystem.read(target)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }
}

/// What `StoreFile.applyAndRead` saved: the change's outcome, the store as it left it and that file's fingerprint.
public struct SavedStore: Sendable {
    public let outcome: ChangeOutcome
    public let snapshot: StoreSnapshot
    public let fingerprint: StoreFingerprint?
    /// Why the commit `git-setup --commit-changes` asked for was not made; nil when made or not asked.
    public var notCommitted: String? = nil
}

/// What `StoreFile.applyCommitting` did: the change's outcome, and why its commit was not made.
public struct CommittedChange: Sendable {
    public let outcome: ChangeOutcome
    /// Nil when committed or when the repository does not ask for commits.
    public let notCommitted: String?
}

/// Identifies one version of the store file; the console polls it to notice outside changes.
public struct StoreFingerprint: Hashable, Sendable {
    let value: FileSystem.Fingerprint
    init(_ value: FileSystem.Fingerprint) { self.value = value }
}
