import ExperimentCore
import Foundation
import HTTPServer

/// The JSON answers `serve` gives besides evaluations: errors (always with `errorDetails`) and small objects.
enum JSONAnswer {
    static let contentType = HTTPHeader("Content-Type", "application/json")

    /// `status` with `{"errorCode":…,"errorDetails":…,"key":…}` (the code and key when given).
    static func error(_ status: Int, _ details: String, code: String? = nil, key: String? = nil, headers: [HTTPHeader] = []) -> HTTPResponse {
        var members: [String: JSONValue] = ["errorDetails": .string(details)]
        if let code { members["errorCode"] = .string(code) }
        if let key { members["key"] = .string(key) }
        return object(status, members, headers: headers)
    }

    /// `status` with the compact JSON text of `members` (keys in byte order).
    static func object(_ status: Int, _ members: [String: JSONValue], headers: [HTTPHeader] = []) -> HTTPResponse {
        bytes(status, Data(JSONValue.object(members).compactText.utf8), headers: headers)
    }

    /// `status` with a JSON body already written.
    static func bytes(_ status: Int, _ body: Data, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [contentType] + headers, body: body)
    }
}
