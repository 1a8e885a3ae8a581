import ExperimentCore
import Foundation

/// The subject of an OFREP evaluation request (SPEC §13): read from the body's `context` object.
///
/// `userId` and `deviceId` name the subjects; `targetingKey` stands for the user when `userId` is
/// absent. A body without `context`, or with `"context": null`, is an empty context (no subject).
/// An id that is present but empty counts as absent, as it does for `assign`; other attributes are
/// accepted and ignored.
enum EvaluationContext {
    /// Why a request body names no subject: OFREP's error code and one sentence for `errorDetails`.
    struct Failure: Error, Equatable {
        /// `PARSE_ERROR` or `INVALID_CONTEXT`.
        let code: String
        let details: String

        static func parse(_ details: String) -> Failure { Failure(code: "PARSE_ERROR", details: details) }
        static func invalid(_ details: String) -> Failure { Failure(code: "INVALID_CONTEXT", details: details) }
    }

    /// The subject a request body names, or why it names none.
    static func subject(from body: Data) -> Result<Subject, Failure> {
        guard let text = ValidUTF8.string(body) else { return .failure(.parse("the request body is not UTF-8 text")) }
        guard case .success(let value) = JSONValue.parse(text) else {
            return .failure(.parse(#"the request body is not valid JSON; send {"context":{"targetingKey":"…"}}"#))
        }
        guard case .object(let request) = value else {
            return .failure(.parse(#"the request body must be a JSON object such as {"context":{"targetingKey":"…"}}"#))
        }
        let members: [String: JSONValue]
        switch request["context"] {
        case nil, .null?: members = [:]
        case .object(let object)?: members = object
        default: return .failure(.invalid("context must be a JSON object"))
        }
        do throws(Failure) {
            let userID = try id("userId", in: members), targetingKey = try id("targetingKey", in: members)
            return .success(Subject(userID: userID ?? targetingKey, deviceID: try id("deviceId", in: members)))
        } catch {
            return .failure(error)
        }
    }

    /// The id under `name`: nil when absent, null or empty; refused when not a string or not a valid subject id.
    private static func id(_ name: String, in members: [String: JSONValue]) throws(Failure) -> String? {
        switch members[name] {
        case nil, .null?:
            return nil
        case .string(let id)?:
            if id.isEmpty { return nil }
            guard Identifier.isValidSubject(id), !Identifier.hasOuterWhitespace(id) else {
                throw .invalid("\(name) must be 1–256 characters without control characters or spaces at either end")
            }
            return id
        default:
            throw .invalid("\(name) must be a string")
        }
    }
}
