import Foundation

/// Reading fields this build does not know (SPEC §11 rule 7): kept as JSON values by name, so a
/// change or a merge writes them back instead of dropping them.
extension StoreReader {
    /// Reads the value of an unknown field `name` into `fields`; false on a repeated name or a value
    /// the fast reader declines (then `JSONDecoder` reads the file).
    static func keepUnknown(_ fields: inout [String: JSONValue], _ name: UnsafeBufferPointer<UInt8>, _ cursor: inout JSONCursor) -> Bool {
        guard let value = cursor.value() else { return false }
        return fields.updateValue(value, forKey: String(decoding: name, as: UTF8.self)) == nil
    }
}

/// Any field name, for the `Codable` side of unknown fields.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Every field of this object whose name is not in `known`, as JSON values.
    func unknownFields(known: Set<String>) throws -> [String: JSONValue] {
        let container = try container(keyedBy: AnyCodingKey.self)
        var fields: [String: JSONValue] = [:]
        for key in container.allKeys where !known.contains(key.stringValue) {
            fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return fields
    }
}

extension Encoder {
    /// Writes `fields` beside the known ones.
    func encodeUnknown(_ fields: [String: JSONValue]) throws {
        guard !fields.isEmpty else { return }
        var container = container(keyedBy: AnyCodingKey.self)
        for (name, value) in fields { try container.encode(value, forKey: AnyCodingKey(stringValue: name)) }
    }
}
