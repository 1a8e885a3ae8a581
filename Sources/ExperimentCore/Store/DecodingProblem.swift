import Foundation

/// A `DecodingError` in words: the JSON path it happened at and what was wrong there. The one
/// description the store's fallback reader, the client's snapshot loader and its payloads give.
package enum DecodingProblem {
    /// The path (`$.experiments[2].variants[0].weight`) and the problem (`expected a number`).
    package static func describe(_ error: DecodingError) -> (path: String, problem: String) {
        switch error {
        case .typeMismatch(let type, let context):
            (StoreCoding.path(context.codingPath), "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            (StoreCoding.path(context.codingPath), "expected \(describe(type)), found null")
        case .keyNotFound(let key, let context):
            (StoreCoding.path(context.codingPath), "missing field `\(key.stringValue)`")
        case .dataCorrupted(let context):
            (StoreCoding.path(context.codingPath), context.debugDescription)
        @unknown default:
            ("$", "cannot be decoded: \(error.localizedDescription)")
        }
    }

    /// `path: problem`, for a message of one line.
    package static func text(_ error: DecodingError) -> String {
        let (path, problem) = describe(error)
        return "\(path): \(problem)"
    }

    /// What a value of `type` looks like in JSON.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is Date.Type: "an ISO 8601 date such as 2026-01-31T09:30:00Z"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
