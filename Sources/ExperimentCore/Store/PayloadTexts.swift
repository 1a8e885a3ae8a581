import Foundation

/// The variant payloads of a store as they are written, for documents `JSONDecoder` read.
///
/// `JSONDecoder` hands numbers over as `Decimal` or `Double`, so a payload's `1.0` would come back
/// as `1` and be written so by the next, unrelated save. Payloads are data the store does not own:
/// after the fallback decoded a document, each payload is read again from its own bytes with the
/// store's reader (which keeps number text) and replaces the decoded one when both are the same value.
package enum PayloadTexts {
    /// Replaces the decoded payloads of `document` with the same values read from `bytes`.
    static func restore(_ document: inout StoreDocument, from bytes: UnsafeBufferPointer<UInt8>) {
        restore(&document.experiments, from: bytes)
    }

    /// Replaces the decoded payloads of `experiments` (in file order, as at `$.experiments`) with the same values read from `data`.
    package static func restore(_ experiments: inout [Experiment], from data: Data) {
        data.withUnsafeBytes { restore(&experiments, from: $0.bindMemory(to: UInt8.self)) }
    }

    static func restore(_ experiments: inout [Experiment], from bytes: UnsafeBufferPointer<UInt8>) {
        for (place, value) in payloads(in: bytes) {
            guard place.experiment < experiments.count,
                  place.variant < experiments[place.experiment].variants.count,
                  let decoded = experiments[place.experiment].variants[place.variant].payload,
                  decoded == value else { continue }
            experiments[place.experiment].variants[place.variant].payload = value
        }
    }

    struct Place: Hashable {
        let experiment: Int
        let variant: Int
    }

    /// Each `$.experiments[i].variants[j].payload` that the store's reader reads, by place (the last when repeated).
    ///
    /// Walks the structure only (strings skipped, other bytes ignored), so whatever `JSONDecoder`
    /// tolerated around the payloads (a byte order mark, a trailing comma) does not stop it.
    static func payloads(in bytes: UnsafeBufferPointer<UInt8>) -> [Place: JSONValue] {
        var scan = JSONDepth.Scan(bytes)
        var found: [Place: JSONValue] = [:]
        while let event = scan.next() {
            guard case .valueFollows = event, scan.stack.count == 5, scan.isKey("experiments", at: 0), !scan.stack[1].isObject,
                  scan.isKey("variants", at: 2), !scan.stack[3].isObject, scan.isKey("payload", at: 4) else { continue }
            var cursor = JSONCursor(UnsafeBufferPointer(rebasing: bytes[scan.position...]))
            if let value = cursor.value() { found[Place(experiment: scan.stack[1].index, variant: scan.stack[3].index)] = value }
        }
        return found
    }
}
