import ExperimentCore
import ExperimentEditing
import Foundation

/// The store's use cases with what follows each write, for every front (the CLI, the console).
///
/// A change is one transaction that, with `git-setup --commit-changes`, also commits the store alone
/// before its lock is released; a whitelist import reads its file (devices and directories refused
/// unread, at most `importLimit` bytes), reports every bad line with the rows the experiment refuses,
/// and is then one such change. A front says the outcome in its own words and nothing more.
public struct StoreService: Sendable {
    public let store: StoreFile

    /// The largest whitelist import read, in bytes (about five million rows).
    public static let importLimit = 256 << 20

    public init(_ store: StoreFile) {
        self.store = store
    }

    /// Applies `change` (refused if the experiment moved past `expectedRevision`) and commits it when
    /// the repository asks; with `readingBack`, also the store as it left it and that file's
    /// fingerprint, read under the same lock.
    public func apply(_ change: Change, expectedRevision: Int? = nil, context: ChangeContext,
                      readingBack: Bool = false) throws(StoreError) -> SavedChange {
        guard readingBack else {
            let committed = try store.applyCommitting(change, expectedRevision: expectedRevision, context: context)
            return SavedChange(outcome: committed.outcome, notCommitted: committed.notCommitted)
        }
        let saved = try store.applyAndRead(change, expectedRevision: expectedRevision, context: context, committing: true)
        return SavedChange(outcome: saved.outcome, notCommitted: saved.notCommitted, snapshot: saved.snapshot, fingerprint: saved.fingerprint)
    }

    /// Reads and parses the CSV `source` (`subject,variant[,note]`): every row, and every bad line.
    ///
    /// Throws `InputFileError` for a file that cannot be read (a device or a directory is refused
    /// unread, a file over `importLimit` refused unread), `StoreError.refused` for one that is not text.
    public func readImport(_ source: ImportSource) throws -> ImportFile {
        let data: Data
        switch source {
        case .file(let path): data = try InputFileError.read(path, limit: Self.importLimit)
        case .data(let bytes): data = bytes
        }
        do {
            let parsed = try WhitelistCSV.parseCollecting(data)
            return ImportFile(rows: parsed.rows, problems: parsed.problems)
        } catch {
            throw StoreError.refused(error)
        }
    }

    /// Imports `file` into `experiment`'s whitelist, all or nothing, as one change (committed as `apply` commits).
    ///
    /// A file with bad lines is refused naming them together with the rows the experiment refuses,
    /// judged under the store's lock against the store the import was refused for.
    public func importWhitelist(_ experiment: String, _ file: ImportFile, expectedRevision: Int? = nil,
                                context: ChangeContext, readingBack: Bool = false) throws(StoreError) -> SavedChange {
        if file.problems.total > 0 {
            try store.update { snapshot throws(ExperimentError) in
                var problems = file.problems
                if let target = snapshot.experiments[experiment] { problems.merge(target.importProblems(file.rows)) }
                if let error = problems.error { throw error }
            }
        }
        return try apply(.whitelistImport(experiment: experiment, rows: file.rows), expectedRevision: expectedRevision,
                         context: context, readingBack: readingBack)
    }
}

/// A whitelist import as read: its well-formed rows and every malformed line.
public struct ImportFile: Sendable {
    public let rows: [WhitelistRow]
    public let problems: ImportProblems
}

/// Where a whitelist import comes from: a file named by the user, or bytes already read (standard input).
public enum ImportSource: Sendable {
    case file(String)
    case data(Data)
}

/// What a change saved: its outcome, why its commit was not made, and (when read back) the store it left.
public struct SavedChange: Sendable {
    public let outcome: ChangeOutcome
    /// Why the commit `git-setup --commit-changes` asked for was not made; nil when made or not asked.
    public let notCommitted: String?
    /// The store as the change left it, and that file's fingerprint (with `readingBack`).
    public var snapshot: StoreSnapshot? = nil
    public var fingerprint: StoreFingerprint? = nil

    /// The sentence a front says when the commit was not made (the change itself is saved).
    public var notCommittedNote: String? {
        notCommitted.map { "the change is saved but not committed: \($0)" }
    }
}
