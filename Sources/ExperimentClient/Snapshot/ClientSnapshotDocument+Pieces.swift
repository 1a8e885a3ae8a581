import ExperimentCore
import Foundation

/// `ClientSnapshotDocument.encoded()` in pieces, so an export can stream the document instead of
/// holding it whole as encoder values (the whole document took about 6× the store's size).
///
/// The pieces come from the same encoder and the same types; only the whitelist entries are left
/// to the caller, who writes each `{"subject":S,"variant":V}` with `JSONEncoder`'s escaping and
/// `</` written `<\/`. Head, experiments (joined by `,`) and tail give the bytes of `encoded()`.
package enum ClientSnapshotPieces {
    /// `{"experiments":[` and `],"format":…,"revision":N,"schema_version":1}` plus the final newline.
    package static func frame(revision: Int) throws -> (head: Data, tail: Data) {
        let document = try ClientSnapshotDocument(StoreSnapshot(revision: revision, experiments: [:])).encoded()
        let marker = Data("\"experiments\":[]".utf8)
        guard let found = document.range(of: marker) else { throw PiecesError.unexpectedEncoding }
        return (document[..<(found.upperBound - 1)], document[(found.upperBound - 1)...])
    }

    /// The encoded `experiment` around its whitelist array's contents: `{…"whitelist":[` and `]…}`.
    package static func experiment(_ experiment: Experiment) throws -> (before: Data, after: Data) {
        var client = ClientExperiment(experiment, withWhitelist: false)
        client.whitelist = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(client, with: encoder))
        // The last one is the experiment's own: payloads come before it, and `winner` after it is
        // null or a string, which cannot hold an unescaped quote.
        guard let found = bytes.range(of: Data("\"whitelist\":[]".utf8), options: .backwards) else { throw PiecesError.unexpectedEncoding }
        return (Data(bytes[..<(found.upperBound - 1)]), Data(bytes[(found.upperBound - 1)...]))
    }

    /// The encoder wrote something other than the document's known shape.
    package enum PiecesError: Error { case unexpectedEncoding }
}
