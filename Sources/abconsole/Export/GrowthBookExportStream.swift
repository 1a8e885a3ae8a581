import ExperimentClient
import ExperimentCore
import ExperimentStore
import Foundation

/// `export --format growthbook` feature by feature: the bytes `ExportCommand.encode` gives the whole
/// payload, built from each experiment's feature encoded alone, so the export never sits in memory
/// as one tree of encoder values (`ABCONSOLE_PLAIN_EXPORT=1` takes the plain encoder).
///
/// The features are `GrowthBookExport.feature`'s and the refusals `GrowthBookExport`'s; they are
/// encoded before the first byte is written, so an encoding error leaves nothing written. Keys
/// come in the encoder's `sortedKeys` order, by their UTF-8 bytes.
struct GrowthBookExportStream {
    private let head: Data
    private let tail: Data
    private let features: [Data]

    /// The pieces of the payload of `experiments` of `snapshot` serving `values`.
    init(_ snapshot: StoreSnapshot, experiments: [Experiment], values: GrowthBookExport.Values) throws {
        try GrowthBookExport.refusePartialPayloads(experiments, values: values)
        var frame: [String: JSONValue] = ["features": .object([:])]
        if let updated = GrowthBookExport.lastChange(snapshot) { frame["dateUpdated"] = .string(updated) }
        let bytes = try ExportCommand.encode(.object(frame))
        // `dateUpdated` sorts first and is a string, so the last `"features":{}` is the payload's own.
        guard let found = bytes.range(of: Data("\"features\":{}".utf8), options: .backwards) else {
            throw ClientSnapshotPieces.PiecesError.unexpectedEncoding
        }
        head = bytes[..<(found.upperBound - 1)]
        tail = bytes[(found.upperBound - 1)...]
        let sorted = experiments.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        // A few hundred features per encoder call: one call per feature cost more than the encoding.
        features = try stride(from: 0, to: sorted.count, by: Self.batch).map { start in
            var members: [String: JSONValue] = [:]
            for experiment in sorted[start..<min(start + Self.batch, sorted.count)] {
                members[experiment.key] = GrowthBookExport.feature(experiment, values: values)
            }
            // `{"a":{…},"b":{…}}\n` without its outer braces and newline: `"a":{…},"b":{…}`.
            return Data(try ExportCommand.encode(.object(members)).dropFirst().dropLast(2))
        }
    }

    /// Features per encoder call.
    private static let batch = 256

    /// Writes the whole payload.
    func write(into writer: inout ByteWriter) {
        writer.append(head)
        for (index, feature) in features.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            writer.append(feature)
        }
        writer.append(tail)
    }

    /// The whole payload as `Data` (for standard output).
    func data() -> Data {
        var writer = ByteWriter(capacity: 1 << 20)
        write(into: &writer)
        return writer.data()
    }
}
