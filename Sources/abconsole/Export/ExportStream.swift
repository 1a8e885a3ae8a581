import ExperimentCore
import ExperimentStore
import Foundation

/// A streamed export: the encoders' bytes (a frame, then pieces) with the whitelisted ids written
/// between them from `entries`, so a million entries never sit in memory as encoder values.
///
/// `ExportStream.client` and `ExportStream.growthBook` make the pieces; everything is encoded before
/// the first byte is written, so an encoding error leaves nothing written.
struct ExportStream {
    let head: Data
    let tail: Data
    let pieces: [ExportPiece]
    let entries: ExportEntries

    /// Writes the whole export.
    func write(into writer: inout ByteWriter) throws {
        writer.append(head)
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                writer.append(bytes)
            case .entries(let experiment):
                var first = true
                try entries.forEach(in: experiment) { subject, variant in
                    writer.append(first ? "{\"subject\":" : ",{\"subject\":")
                    writer.appendExportString(subject)
                    writer.append(",\"variant\":")
                    writer.appendExportString(variant)
                    writer.append(UInt8(ascii: "}"))
                    first = false
                }
            case .ids(let experiment, let variant):
                let name = Array(experiment.variants[variant].name.utf8)
                var first = true
                try entries.forEach(in: experiment) { subject, variant in
                    guard variant.same(as: name) else { return }
                    if !first { writer.append(UInt8(ascii: ",")) }
                    writer.appendExportString(subject)
                    first = false
                }
            }
        }
        writer.append(tail)
    }

    /// The whole export as `Data` (for standard output and `--watch`).
    func data() throws -> Data {
        var writer = ByteWriter(capacity: 1 << 20)
        try write(into: &writer)
        return writer.data()
    }

    /// The pieces of `count` experiments encoded `batch` at a time on every core, joined by `,`:
    /// `encode` gives the pieces of the experiments in its range.
    static func batched(_ count: Int, _ encode: (Range<Int>) throws -> [ExportPiece]) throws -> [ExportPiece] {
        let starts = Array(stride(from: 0, to: count, by: batch))
        let batches = try ConcurrentMap.map(starts.count) { try encode(starts[$0]..<min(starts[$0] + batch, count)) }
        return Array(batches.joined(separator: [.bytes(Data(",".utf8))]))
    }

    /// Experiments per encoder call: one call per experiment cost more than the encoding.
    static let batch = 256
}

/// A piece of a streamed export: bytes from the encoder, or where whitelisted entries go.
enum ExportPiece {
    case bytes(Data)
    /// An experiment's entries as the client snapshot lists them: `{"subject":S,"variant":V}`, joined by `,`.
    case entries(Experiment)
    /// The subjects whitelisted into one variant (by index), as strings joined by `,` (a GrowthBook `$in` list).
    case ids(Experiment, variant: Int)
}
