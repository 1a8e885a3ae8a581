import Foundation

/// A validated store as a server holds it: what deciding and checking rows against the store read,
/// and nothing else — no whitelist note, operator or date, no history.
///
/// Each whitelist is subject to variant index, as `CompiledExperiment(_:listed:)` takes it. Read from
/// a file (`decode`), the entries the writer wrote go straight from the bytes to those dictionaries,
/// so a big whitelist never exists as `WhitelistEntry` values: the read's peak is the file's bytes
/// and the dictionaries. Not a store to change or save.
package struct DecidingStore: Sendable, Equatable {
    package let revision: Int
    /// Every experiment (drafts too), by key order, each with an empty whitelist: see `listed`.
    package let experiments: [Experiment]
    /// Each experiment's whitelist as subject to variant index, by key; absent when nobody is listed.
    package let listed: [String: [SubjectID: Int32]]

    /// The deciding store of a whole snapshot: each whitelist made subject to variant index.
    package init(_ snapshot: StoreSnapshot) {
        self.init(snapshot, listed: [:])
    }

    /// `snapshot` with the whitelists already `listed` by key, and each it still holds made so.
    private init(_ snapshot: StoreSnapshot, listed: [String: [SubjectID: Int32]]) {
        var listed = listed
        for experiment in snapshot.experiments.values where !experiment.whitelist.isEmpty {
            let names = experiment.variants.map(\.name)
            // A valid store lists only variants it has (SPEC §2), so no entry is dropped here.
            listed[experiment.key] = experiment.whitelist.compactMapValues { entry in names.firstIndex(of: entry.variant).map(Int32.init) }
        }
        revision = snapshot.revision
        experiments = snapshot.sortedExperiments.map { experiment in
            var bare = experiment
            bare.whitelist = [:]
            return bare
        }
        self.listed = listed
    }

    /// The deciding store of a store file's bytes (`path` for messages), validated as
    /// `StoreSnapshot.decode` validates it, with the same verdict and problems.
    ///
    /// The one-pass reader checks each entry it lists as the validator would and leaves it out of
    /// the document, so validating the document judges the file as a whole read would; a file it
    /// declines is read whole by `StoreSnapshot.decode` (problems named there) and then listed.
    package static func decode(_ data: consuming Data, path: String) throws(StoreError) -> DecidingStore {
        guard let reading = StoreReader.readingListingWhitelists(from: data) else {
            return DecidingStore(try StoreSnapshot.decode(consume data, path: path))
        }
        data = Data()
        let snapshot = try StoreSnapshot.validated(reading.document, path: path)
        var listed: [String: [SubjectID: Int32]] = [:]
        for (index, indices) in reading.listed { listed[reading.document.experiments[index].key] = indices }
        // A whitelist not in the writer's form was read whole: it is listed from its entries.
        return DecidingStore(snapshot, listed: listed)
    }
}
