#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentClient
import ExperimentCore
import ExperimentStore
import Foundation

/// `export --format client` streamed: the bytes of `ClientSnapshotDocument.encoded()` written into
/// a `ByteWriter` experiment by experiment, so a million whitelist entries never sit in memory as
/// encoder values (`ABCONSOLE_PLAIN_EXPORT=1` takes the plain encoder, the reference in tests).
///
/// Everything but the whitelist entries comes from the document's own encoder
/// (`ClientSnapshotPieces`), computed before the first byte is written so an encoding error leaves
/// nothing written; the entries are `{"subject":S,"variant":V}` in `sortedWhitelist` order.
struct ClientExportStream {
    private let head: Data
    private let tail: Data
    private let experiments: [(experiment: Experiment, before: Data, after: Data)]

    /// The pieces of the export of `experiments` (sorted by key) of a store at `revision`.
    init(revision: Int, experiments: [Experiment]) throws {
        (head, tail) = try ClientSnapshotPieces.frame(revision: revision)
        self.experiments = try experiments.map { experiment in
            let (before, after) = try ClientSnapshotPieces.experiment(experiment)
            return (experiment, before, after)
        }
    }

    /// Whether the environment asks for the plain encoder.
    static var plain: Bool { ProcessInfo.processInfo.environment["ABCONSOLE_PLAIN_EXPORT"] != nil }

    /// Writes the whole document.
    func write(into writer: inout ByteWriter) {
        writer.append(head)
        for (index, piece) in experiments.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            writer.append(piece.before)
            for (number, entry) in piece.experiment.sortedWhitelist.enumerated() {
                writer.append(number == 0 ? "{\"subject\":" : ",{\"subject\":")
                Self.appendString(entry.subject, into: &writer)
                writer.append(",\"variant\":")
                Self.appendString(entry.variant, into: &writer)
                writer.append(UInt8(ascii: "}"))
            }
            writer.append(piece.after)
        }
        writer.append(tail)
    }

    /// The whole document as `Data` (for standard output).
    func data() -> Data {
        var writer = ByteWriter(capacity: 1 << 20)
        write(into: &writer)
        return writer.data()
    }

    /// `text` as `JSONEncoder` writes a string (the store writer's escaping), with `</` written `<\/`.
    private static func appendString(_ text: String, into writer: inout ByteWriter) {
        let bracket = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(UInt8(ascii: "<")), bytes.count) != nil } ?? false
        }
        guard bracket ?? text.utf8.contains(UInt8(ascii: "<")) else {
            writer.appendQuoted(text)
            return
        }
        writer.append(HTMLSafeJSON.escapingClosingTags(Data(ByteWriter.quoted(text))))
    }
}

extension ByteWriter {
    /// Appends the bytes of `data`.
    mutating func append(_ data: Data) {
        data.withUnsafeBytes { append($0.bindMemory(to: UInt8.self)) }
    }
}
