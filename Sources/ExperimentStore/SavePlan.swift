import ExperimentCore
import Foundation

/// How a transaction saves, decided before it takes the lock: the readings it tries, cheapest first.
///
/// Each reading reads the store under the lock, applies the change, validates the result and
/// answers a `StoreSave` (what the writer copies from the file and what it encodes), or nil when
/// the change left more than that reading kept: the next one then runs. The last, the whole store
/// read and encoded, always answers: it is the plain path, and the only one when `FastPaths` has
/// `save` off. The fast readings decide nothing the plain one would decide otherwise: the same
/// `Experiment.apply` runs on the same values, and the writer's bytes of an experiment it copies
/// are the bytes it would encode (`StoreWriter.writtenSpan`).
struct SavePlan {
    /// One way of reading the store for a change.
    enum Reading: Equatable {
        /// One experiment changed: its whitelist entries but those of `subjects` left in the file
        /// and spliced around (`SplicedWhitelist`), the other experiments and the history copied.
        case splicing(experiment: String, subjects: [String])
        /// The experiments `changed` read and validated; the others and the history copied.
        case copyingOthers(changed: Set<String>)
        /// The whole store read, validated and encoded.
        case whole
    }

    /// The readings to try, in order; the last is `.whole`.
    let readings: [Reading]
    /// Whether the history entries the change adds are kept (to be committed).
    let keepingAdded: Bool
    /// Whether the one-pass reader may read the file (`FastPaths.read`).
    let fastRead: Bool

    /// The plan for a change to the experiments `changed` (nil: any body) that may touch the entries
    /// of `subjects` only (nil: any), with `fastPaths` as the entry point chose them.
    init(changed: Set<String>?, subjects: [String]?, keepingAdded: Bool, fastPaths: FastPaths) {
        var readings: [Reading] = []
        if fastPaths.allows(.save), let changed {
            if let subjects, changed.count == 1, let key = changed.first { readings.append(.splicing(experiment: key, subjects: subjects)) }
            readings.append(.copyingOthers(changed: changed))
        }
        // A change recorded before the newest entry goes in among the entries: the history is read and written whole.
        self.readings = readings + [.whole]
        self.keepingAdded = keepingAdded
        self.fastRead = fastPaths.allows(.read)
    }

    /// The first reading's save of `original` (nil: a new store) after `body`; `path` names the store in refusals.
    func run<T>(_ original: Data?, path: String, _ body: (inout StoreSnapshot) throws(ExperimentError) -> T) throws(StoreError) -> (result: T, save: StoreSave) {
        for reading in readings {
            guard let run = try attempt(reading, original, path: path, body) else { continue }
            #if DEBUG
            if reading != .whole { FastPathTrace.note(.save) }
            #endif
            return run
        }
        // `.whole` always answers; a plan without it has nothing to save.
        throw .missing(path: path)
    }

    /// Reads `original` as `reading` says, applies `body` and validates the result: after a change
    /// to named experiments, only they and the appended history are validated and the others are
    /// copied. Nil when the change left more than the reading kept (a spliced whitelist holding
    /// other subjects, an entry recorded before the copied history's last).
    private func attempt<T>(_ reading: Reading, _ original: Data?, path: String,
                            _ body: (inout StoreSnapshot) throws(ExperimentError) -> T) throws(StoreError) -> (result: T, save: StoreSave)? {
        var snapshot = StoreSnapshot(), verbatim: [String: Range<Int>] = [:], writtenHistory: WrittenHistory?
        var spliced: [String: SplicedWhitelist] = [:]
        let changed: Set<String>?
        switch reading {
        case .whole:
            changed = nil
            if let original { snapshot = try StoreSnapshot.decode(original, path: path, fastPaths: fastRead ? .all : .plain) }
        case .copyingOthers(let named):
            changed = named
            if let original {
                (snapshot, verbatim, writtenHistory) = try StoreSnapshot.read(original, path: path, recognising: StoreWriter.writtenSpan,
                                                                              keepingEntriesOf: named)
            }
        case .splicing(let key, let subjects):
            changed = [key]
            guard let original else { return nil }
            // The experiment's entries are checked, not kept: those of `subjects` are read back from its copy.
            (snapshot, verbatim, writtenHistory) = try StoreSnapshot.read(original, path: path, recognising: StoreWriter.writtenSpan,
                                                                          keepingEntriesOf: [])
            // Copied (its whitelist left empty) or read whole: an experiment not copied is changed as on a plain read.
            if let span = verbatim[key], let index = snapshot.experiments.index(forKey: key) {
                guard let splice = SplicedWhitelist(&snapshot.experiments.values[index], span: span, subjects: subjects, in: original) else { return nil }
                spliced[key] = splice
            }
        }
        let historyCount = snapshot.history.count
        let historyBefore = keepingAdded ? snapshot.history : []
        let unchanged = snapshot  // shares storage until the body writes: no copy is made
        let result: T
        do {
            result = try body(&snapshot)
        } catch {
            throw .refused(error)
        }
        for (key, splice) in spliced where !(snapshot.experiments[key].map(splice.fits) ?? true) { return nil }
        if let last = writtenHistory?.last, snapshot.history.contains(where: { $0.at < last }) { return nil }
        let problems = changed.map { StoreValidator.problems(in: snapshot, changed: $0, historyFrom: historyCount, after: writtenHistory?.count ?? 0) }
            ?? StoreValidator.problems(in: StoreDocument(snapshot))
        guard problems.isEmpty else { throw .invalid(path: path, problems: problems) }
        // Experiments a change did not touch are copied as they were written.
        for key in changed ?? [] { verbatim[key] = nil }
        let added = keepingAdded ? Self.added(to: historyBefore, in: snapshot.history) : []
        // Every change records an entry; one that recorded none and left every value as it was writes nothing.
        let noChange = original != nil && snapshot.history.count == historyCount && snapshot == unchanged
        return (result, StoreSave(snapshot: snapshot, verbatim: verbatim, history: writtenHistory, spliced: spliced, added: added, noChange: noChange))
    }

    /// The entries of `after` that `before` (in order, a subsequence of it) does not hold: what a change
    /// added, wherever its time placed it.
    private static func added(to before: [HistoryEntry], in after: [HistoryEntry]) -> [HistoryEntry] {
        var next = before.startIndex
        return after.filter { entry in
            if next < before.endIndex, before[next] == entry {
                next += 1
                return false
            }
            return true
        }
    }
}

/// What a transaction writes: the store as the change left it, and what of the original it copies.
struct StoreSave {
    var snapshot: StoreSnapshot
    /// The experiments copied from the original, by key (`StoreReading.verbatim`, less what the change touched).
    var verbatim: [String: Range<Int>]
    /// The history entries copied from the original, before the snapshot's (all appended since).
    var history: WrittenHistory?
    /// The experiments whose whitelist lines are copied but for the entries the change touched.
    var spliced: [String: SplicedWhitelist] = [:]
    /// The history entries the body added (kept only when the change is to be committed).
    var added: [HistoryEntry] = []
    /// The change recorded nothing and changed no value: the file is left as it is, whatever its layout.
    var noChange = false

    /// Appends the store file's bytes to `writer`: copied from `original` where the save says, encoded elsewhere.
    func write(to writer: inout ByteWriter, from original: Data?) {
        StoreWriter.write(snapshot, to: &writer, verbatim: verbatim, history: history, from: original, spliced: spliced)
    }
}
