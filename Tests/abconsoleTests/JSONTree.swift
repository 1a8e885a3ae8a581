import Foundation

/// Any JSON document, decoded with `JSONDecoder` and compared whole against a literal.
enum JSONTree: Equatable, Sendable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    /// The member `key` of an object (`.null` otherwise).
    subscript(key: String) -> JSONTree {
        if case .object(let members) = self { return members[key] ?? .null }
        return .null
    }

    /// The element at `index` of an array (`.null` otherwise).
    subscript(index: Int) -> JSONTree {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return .null
    }

    /// The member names of an object.
    var keys: Set<String> {
        if case .object(let members) = self { return Set(members.keys) }
        return []
    }

    /// The elements of an array (empty otherwise).
    var elements: [JSONTree] {
        if case .array(let elements) = self { return elements }
        return []
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        case .string(let text): "\"\(text)\""
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members): "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!.description)" }.joined(separator: ",") + "}"
        }
    }
}

extension JSONTree: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(nilLiteral: ()) { self = .null }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: JSONTree...) { self = .array(elements) }
    init(dictionaryLiteral members: (String, JSONTree)...) { self = .object(Dictionary(uniqueKeysWithValues: members)) }
}
