import ExperimentCore
import ExperimentStore
import Foundation

/// `export --format client` streamed: the bytes of `ClientSnapshotDocument.encoded()` written into
/// a `ByteWriter` experiment by experiment, so a million whitelist entries never sit in memory as
/// encoder values (`ABCONSOLE_PLAIN_EXPORT=1` takes the plain encoder, the reference in tests).
///
/// Everything but the whitelist entries comes from the document's own encoder
/// (`ClientSnapshotPieces`), a few hundred experiments per call on every core, each whitelist a
/// stand-in entry cut out again; all of it is encoded before the first byte is written, so an
/// encoding error leaves nothing written. The entries are `{"subject":S,"variant":V}` in subject order, from `entries`.
struct ClientExportStream {
    private let head: Data
    private let tail: Data
    private let pieces: [ExportPiece]
    private let entries: ExportEntries

    /// The pieces of the export of `experiments` (sorted by key) of a store at `revision`.
    init(revision: Int, experiments: [Experiment], entries: ExportEntries) throws {
        (head, tail) = try ClientSnapshotPieces.frame(revision: revision)
        let standIns = ExportStandIns()
        let starts = Array(stride(from: 0, to: experiments.count, by: ExportPiece.batch))
        let batches = try ConcurrentMap.map(starts.count) { index -> [ExportPiece] in
            let batch = experiments[starts[index]..<min(starts[index] + ExportPiece.batch, experiments.count)]
            let encoded = try ClientSnapshotPieces.experiments(batch, standIn: { standIns.id($0, 0) })
            let (cuts, rest) = try standIns.cut(encoded, lead: "{\"subject\":\"", form: ClientSnapshotPieces.standInEntry)
            // One stand-in per experiment, in the batch's order.
            guard cuts.map(\.experiment) == Array(batch.indices.map { $0 - batch.startIndex }) else { throw ExportPiecesError.unexpectedEncoding }
            return cuts.flatMap { [.bytes($0.before), .entries(batch[batch.startIndex + $0.experiment], variant: nil)] } + [.bytes(rest)]
        }
        pieces = Array(batches.joined(separator: [.bytes(Data(",".utf8))]))
        self.entries = entries
    }

    /// Writes the whole document.
    func write(into writer: inout ByteWriter) throws {
        writer.append(head)
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                writer.append(bytes)
            case .entries(let experiment, _):
                var first = true
                try entries.forEach(in: experiment) { subject, variant in
                    writer.append(first ? "{\"subject\":" : ",{\"subject\":")
                    writer.appendExportString(subject)
                    writer.append(",\"variant\":")
                    writer.appendExportString(variant)
                    writer.append(UInt8(ascii: "}"))
                    first = false
                }
            }
        }
        writer.append(tail)
    }

    /// The whole document as `Data` (for standard output).
    func data() throws -> Data {
        var writer = ByteWriter(capacity: 1 << 20)
        try write(into: &writer)
        return writer.data()
    }
}
