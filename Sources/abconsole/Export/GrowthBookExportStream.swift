import ExperimentCore
import ExperimentStore
import Foundation

/// `export --format growthbook` streamed: the bytes `ExportCommand.encode` gives the whole payload,
/// built from a few hundred features encoded at a time (`ABCONSOLE_PLAIN_EXPORT=1` takes the plain encoder).
///
/// The features are `GrowthBookExport.feature`'s and the refusals and warnings `GrowthBookExport`'s.
/// Each whitelist rule is encoded with one stand-in id (`ExportStandIns`), which the stream replaces
/// by the variant's ids read from `entries`. Keys come in the encoder's `sortedKeys` order.
extension ExportStream {
    /// The payload of `experiments` of `snapshot` serving `values`, and the warnings `export` prints for them.
    static func growthBook(_ snapshot: StoreSnapshot, experiments: [Experiment], values: GrowthBookExport.Values,
                           entries: ExportEntries) throws -> (ExportStream, warnings: [String]) {
        try GrowthBookExport.refusePartialPayloads(experiments, values: values)
        var frame: [String: JSONValue] = ["features": .object([:])]
        if let updated = GrowthBookExport.lastChange(snapshot) { frame["dateUpdated"] = .string(updated) }
        let bytes = try ExportCommand.encode(.object(frame))
        // `dateUpdated` sorts first and is a string, so the last `"features":{}` is the payload's own.
        guard let found = bytes.range(of: Data("\"features\":{}".utf8), options: .backwards) else { throw ExportPiecesError.unexpectedEncoding }
        // Which variants whitelist a subject, read once before encoding (the rules depend on it).
        var listed: [String: Set<Int>] = [:], nonASCII: [String: Int] = [:]
        for experiment in experiments {
            (listed[experiment.key], nonASCII[experiment.key]) = try listing(experiment, entries)
        }
        let sorted = experiments.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let standIns = ExportStandIns()
        let pieces = try batched(sorted.count) { range -> [ExportPiece] in
            let batch = Array(sorted[range])
            var members: [String: JSONValue] = [:]
            for (number, experiment) in batch.enumerated() {
                let stand = standing(experiment, for: listed[experiment.key] ?? [], ids: { standIns.id(number, $0) })
                members[experiment.key] = GrowthBookExport.feature(stand, values: values)
            }
            // `{"a":{…},"b":{…}}\n` without its outer braces and newline: `"a":{…},"b":{…}`.
            let encoded = Data(try ExportCommand.encode(.object(members)).dropFirst().dropLast(2))
            let (cuts, rest) = try standIns.cut(encoded, lead: "\"", form: { Data("\"\($0)\"".utf8) })
            guard cuts.allSatisfy({ batch.indices.contains($0.experiment) && batch[$0.experiment].variants.indices.contains($0.variant) }) else {
                throw ExportPiecesError.unexpectedEncoding
            }
            return cuts.flatMap { [.bytes($0.before), .ids(batch[$0.experiment], variant: $0.variant)] } + [.bytes(rest)]
        }
        let warnings = experiments.compactMap { GrowthBookExport.warning($0, nonASCIIIDs: nonASCII[$0.key] ?? 0) }
        return (ExportStream(head: bytes[..<(found.upperBound - 1)], tail: bytes[(found.upperBound - 1)...], pieces: pieces, entries: entries), warnings)
    }

    /// Which of `experiment`'s variants whitelist a subject, and how many of its ids are not ASCII.
    private static func listing(_ experiment: Experiment, _ entries: ExportEntries) throws -> (Set<Int>, Int) {
        let names = experiment.variants.map { Array($0.name.utf8) }
        var listed = Set<Int>(), nonASCII = 0
        try entries.forEach(in: experiment) { subject, variant in
            if let index = names.firstIndex(where: { variant.same(as: $0) }) { listed.insert(index) }
            if subject.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
        }
        return (listed, nonASCII)
    }

    /// `experiment` whitelisting one stand-in id, `ids(V)`, for each variant `V` in `listing`.
    private static func standing(_ experiment: Experiment, for listing: Set<Int>, ids: (Int) -> String) -> Experiment {
        var stand = experiment
        stand.whitelist = [:]
        for variant in listing {
            let id = ids(variant)
            stand.whitelist[SubjectID(id)] = WhitelistEntry(subject: id, variant: experiment.variants[variant].name,
                                                            note: "", addedBy: "", addedAt: experiment.updatedAt)
        }
        return stand
    }
}
