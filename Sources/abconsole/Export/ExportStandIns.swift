import Foundation

/// The stand-in ids an export encodes where whitelisted ids go and then cuts out, so the encoder
/// writes everything else of a few hundred experiments in one call: `abconsole-ids-N-E-V` for the
/// `E`th experiment of a batch and its `V`th variant, `N` random per export, so no key or payload
/// of the store can hold one.
struct ExportStandIns {
    private let prefix = "abconsole-ids-\(UInt64.random(in: 0...UInt64.max))-"

    /// The stand-in for experiment `experiment` of a batch and its variant `variant`.
    func id(_ experiment: Int, _ variant: Int) -> String { "\(prefix)\(experiment)-\(variant)" }

    /// One cut: the encoded bytes before a stand-in, and the experiment and variant it stands for.
    struct Cut {
        let before: Data
        let experiment: Int
        let variant: Int
    }

    /// `encoded` cut at each stand-in, written as `form` gives it (starting with `lead`, the bytes
    /// before the id), and the bytes after the last; a stand-in not written so is the encoder's surprise.
    func cut(_ encoded: Data, lead: String, form: (String) -> Data) throws -> (cuts: [Cut], rest: Data) {
        let marker = Data((lead + prefix).utf8)
        var cuts: [Cut] = [], position = encoded.startIndex
        while let found = encoded.range(of: marker, in: position..<encoded.endIndex) {
            guard let close = encoded[found.upperBound...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            let numbers = encoded[found.upperBound..<close].split(separator: UInt8(ascii: "-")).compactMap { Int(String(decoding: $0, as: UTF8.self)) }
            guard numbers.count == 2 else { throw ExportPiecesError.unexpectedEncoding }
            let whole = form(id(numbers[0], numbers[1]))
            guard encoded[found.lowerBound...].starts(with: whole) else { throw ExportPiecesError.unexpectedEncoding }
            cuts.append(Cut(before: encoded[position..<found.lowerBound], experiment: numbers[0], variant: numbers[1]))
            position = found.lowerBound + whole.count
        }
        return (cuts, encoded[position...])
    }
}

/// An encoder wrote an export's pieces in a shape the stream does not expect.
enum ExportPiecesError: Error { case unexpectedEncoding }
