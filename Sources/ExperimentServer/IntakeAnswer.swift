import Foundation
import HTTPServer

/// The JSON answers of the exposure intake.
enum IntakeAnswer {
    /// A posted row that was not kept, by its 0-based place in the post.
    struct Rejection: Encodable, Equatable {
        let index: Int
        let reason: String
    }

    private struct Accepted: Encodable {
        let accepted: Int
        let rejected: [Rejection]
    }

    private struct Failure: Encodable {
        let errorCode: String
        let errorDetails: String
    }

    /// `200 {"accepted":N,"rejected":[{"index","reason"}]}`.
    static func accepted(_ count: Int, rejected: [Rejection]) -> HTTPResponse {
        json(200, Accepted(accepted: count, rejected: rejected))
    }

    /// An error answer: `{"errorCode","errorDetails"}`.
    static func error(_ status: Int, code: String, _ details: String) -> HTTPResponse {
        json(status, Failure(errorCode: code, errorDetails: details))
    }

    private static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data(#"{"errorDetails":"the answer could not be encoded"}"#.utf8)
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
