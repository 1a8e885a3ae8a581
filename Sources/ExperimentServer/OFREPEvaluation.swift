import ExperimentCore
import Foundation
import HTTPServer

/// OFREP's evaluation endpoints over a served store (SPEC §13).
enum OFREPEvaluation {
    /// `POST /ofrep/v1/evaluate/flags/{key}`: `200 {"key","metadata":{"subjectType"},"reason","value","variant"}`, `404 FLAG_NOT_FOUND`
    /// for a draft or unknown key, `400` for a body that names no subject.
    static func single(key: String, _ request: HTTPRequest, in served: ServedStore) -> HTTPResponse {
        let subject: Subject
        switch EvaluationContext.subject(from: request.body) {
        case .success(let named): subject = named
        case .failure(let failure): return JSONAnswer.error(400, failure.details, code: failure.code, key: key)
        }
        guard let experiment = served.experiment(key) else {
            return JSONAnswer.error(404, "no flag \(key) is served here", code: "FLAG_NOT_FOUND", key: key)
        }
        return JSONAnswer.bytes(200, Data(experiment.answer(for: subject)))
    }

    /// `POST /ofrep/v1/evaluate/flags`: every served experiment's answer, with an `ETag` made from
    /// the answers' bytes, so it changes exactly when this context's answers do (the same on every
    /// replica); `If-None-Match` with it → `304` and no body.
    static func bulk(_ request: HTTPRequest, in served: ServedStore) -> HTTPResponse {
        let subject: Subject
        switch EvaluationContext.subject(from: request.body) {
        case .success(let named): subject = named
        case .failure(let failure): return JSONAnswer.error(400, failure.details, code: failure.code)
        }
        let body = served.bulkAnswer(for: subject)
        let tag = entityTag(body)
        let headers = [HTTPHeader("ETag", tag), HTTPHeader("Cache-Control", "no-cache")]
        if let asked = request.header("If-None-Match"), matches(asked, tag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return JSONAnswer.bytes(200, body, headers: headers)
    }

    /// `GET /ofrep/v1/configuration`: the server's name, polling with its minimum interval, the value types.
    static let configuration: HTTPResponse = {
        let text = #"{"capabilities":{"cacheInvalidation":{"polling":{"enabled":true,"minPollingIntervalMs":"#
            + String(minimumPollingMilliseconds)
            + #"}},"flagEvaluation":{"supportedTypes":["boolean","float","int","object","string"]}},"name":"abconsole"}"#
        return JSONAnswer.bytes(200, Data(text.utf8))
    }()

    /// The shortest polling interval clients are told to use: stores change by hand, seldom.
    static let minimumPollingMilliseconds = 30_000

    /// A strong entity tag: FNV-1a 64 of the body, in hexadecimal and quotes.
    static func entityTag(_ body: Data) -> String {
        // Over the raw bytes: iterating `Data` itself goes through its index machinery byte by byte.
        let hash = body.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            return hash
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether an `If-None-Match` value (`*`, or tags separated by commas, weak or strong) names `tag`.
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var candidate = candidate.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag
        }
    }
}
