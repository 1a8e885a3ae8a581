import ExperimentCore
import Foundation

/// `export --format client` streamed: the bytes of `ClientSnapshotDocument.encoded()`
/// (`ABCONSOLE_PLAIN_EXPORT=1` takes the plain encoder, the reference in tests).
///
/// Everything but the whitelist entries comes from the document's own pieces
/// (`ClientSnapshotPieces`), each whitelist a stand-in entry cut out again; the entries are
/// `{"subject":S,"variant":V}` in subject order, from `entries`.
extension ExportStream {
    /// The export of `experiments` (sorted by key) of a store at `revision`.
    static func client(revision: Int, experiments: [Experiment], entries: ExportEntries) throws -> ExportStream {
        let (head, tail) = try ClientSnapshotPieces.frame(revision: revision)
        let standIns = ExportStandIns()
        let pieces = try batched(experiments.count) { range -> [ExportPiece] in
            let batch = experiments[range]
            let encoded = try ClientSnapshotPieces.experiments(batch, standIn: { standIns.id($0, 0) })
            let (cuts, rest) = try standIns.cut(encoded, lead: "{\"subject\":\"", form: ClientSnapshotPieces.standInEntry)
            // One stand-in per experiment, in the batch's order.
            guard cuts.map(\.experiment) == Array(0..<batch.count) else { throw ExportPiecesError.unexpectedEncoding }
            return cuts.flatMap { [.bytes($0.before), .entries(batch[range.lowerBound + $0.experiment])] } + [.bytes(rest)]
        }
        return ExportStream(head: head, tail: tail, pieces: pieces, entries: entries)
    }
}
