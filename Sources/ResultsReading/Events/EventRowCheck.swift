/// Rows posted to `serve` (SPEC §13) read by the very rules `results` reads a log with (SPEC §8):
/// a row accepted here is one `results` reads, a row refused says why as `results` would.
package enum EventRowCheck {
    /// Which log the rows are for.
    package enum Kind: Sendable {
        case exposures, conversions
    }

    /// What reading one row found.
    package enum Verdict: Equatable, Sendable {
        /// An exposure row that reads: what it names, for the caller to check against the store.
        case exposure(experiment: String, variant: String)
        /// A conversion row that reads.
        case conversion
        /// Why the row does not read, e.g. "field `timestamp`: missing".
        case refused(String)
    }

    /// Each line (one JSON object, no newline) read as a row of a JSON Lines log of `kind`.
    package static func check(_ lines: [[UInt8]], as kind: Kind) -> [Verdict] {
        let fields = kind == .exposures ? ExposurePass.fields : ConversionPass.fields
        let required = kind == .exposures ? ExposurePass.required : ConversionPass.required
        // The name only gives the format: errors are told without it.
        guard let log = try? EventLog(path: "posted.jsonl", fields: fields, required: required) else { return [] }
        let values = FieldValues(path: log.path)
        var scanner = RowScanner(log)
        defer { scanner.free() }
        return lines.map { line in
            line.withUnsafeBufferPointer { bytes in
                do throws(EventError) {
                    try scanner.scan(bytes, number: 1, atFileStart: false)
                    switch kind {
                    case .exposures:
                        let (_, experiment, variant, _) = try ExposurePass.row(scanner.slices, line: 1, values)
                        return .exposure(experiment: String(decoding: experiment, as: UTF8.self), variant: String(decoding: variant, as: UTF8.self))
                    case .conversions:
                        _ = try ConversionPass.row(scanner.slices, line: 1, values, quoted: false)
                        return .conversion
                    }
                } catch .malformed(_, _, let field, let reason) {
                    return .refused((field.map { "field `\($0)`: " } ?? "") + reason)
                } catch {
                    return .refused(error.message)
                }
            }
        }
    }
}
