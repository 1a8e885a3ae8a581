import Foundation
import HTTPServer

/// The exposure intake's answer to a post (its errors are `JSONAnswer.error`s).
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

    /// `200 {"accepted":N,"rejected":[{"index","reason"}]}`.
    static func accepted(_ count: Int, rejected: [Rejection]) -> HTTPResponse {
        json(200, Accepted(accepted: count, rejected: rejected))
    }

    private static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else { return JSONAnswer.error(500, "the answer could not be encoded") }
        return JSONAnswer.bytes(status, body)
    }
}
