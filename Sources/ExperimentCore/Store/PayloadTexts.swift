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
        struct Level {
            let isObject: Bool
            var index = 0
            var key: ArraySlice<UInt8> = []
            var expectsKey: Bool
        }
        var stack: [Level] = []
        var found: [Place: JSONValue] = [:]
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                let end = min(position, bytes.count)
                position += 1
                if let last = stack.indices.last, stack[last].isObject, stack[last].expectsKey {
                    stack[last].key = ArraySlice(bytes[start..<end])
                    stack[last].expectsKey = false
                }
            case UInt8(ascii: ":"):
                guard stack.count == 5, stack[0].isObject, stack[0].key.elementsEqual("experiments".utf8),
                      !stack[1].isObject, stack[2].isObject, stack[2].key.elementsEqual("variants".utf8),
                      !stack[3].isObject, stack[4].isObject, stack[4].key.elementsEqual("payload".utf8) else { continue }
                var cursor = JSONCursor(UnsafeBufferPointer(rebasing: bytes[position...]))
                if let value = cursor.value() { found[Place(experiment: stack[1].index, variant: stack[3].index)] = value }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(Level(isObject: byte == UInt8(ascii: "{"), expectsKey: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                guard let last = stack.indices.last else { continue }
                if stack[last].isObject { stack[last].expectsKey = true } else { stack[last].index += 1 }
            default:
                continue
            }
        }
        return found
    }
}
