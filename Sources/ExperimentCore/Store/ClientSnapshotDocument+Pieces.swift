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

    /// `experiments` encoded as the document's array holds them, `{…},{…}` without the brackets,
    /// each whitelist holding one entry whose subject and variant are both `standIn(i)` for the
    /// `i`th experiment: the caller cuts the document's bytes there and writes the real entries.
    package static func experiments(_ experiments: ArraySlice<Experiment>, standIn: (Int) -> String) throws -> Data {
        let clients = experiments.enumerated().map { index, experiment in
            var client = ClientExperiment(experiment, withWhitelist: false)
            client.whitelist = [ClientWhitelistEntry(subject: standIn(index), variant: standIn(index))]
            return client
        }
        let bytes: Data
        let values = clients.compactMap(\.value)
        if values.count == clients.count {
            // The encoder's bytes without the encoder (`JSONValue.compactText` is what it writes each payload as).
            bytes = HTMLSafeJSON.escapingClosingTags(Data(JSONValue.array(values).compactText.utf8))
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            bytes = HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(clients, with: encoder))
        }
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { throw PiecesError.unexpectedEncoding }
        return Data(bytes.dropFirst().dropLast())
    }

    /// The bytes `experiments(_:standIn:)` gives the stand-in entry of `standIn`.
    package static func standInEntry(_ standIn: String) -> Data {
        Data("{\"subject\":\"\(standIn)\",\"variant\":\"\(standIn)\"}".utf8)
    }

    /// The encoder wrote something other than the document's known shape.
    package enum PiecesError: Error { case unexpectedEncoding }
}
