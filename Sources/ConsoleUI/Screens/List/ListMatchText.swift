import ExperimentCore
import Foundation

/// One experiment's text as the list filter tests it, prepared once per store change.
///
/// An experiment matches when the lowercased filter is in its key, equals its status or type, or is
/// in its lowercased description, `contains` being Foundation's. When the filter and the text are
/// ASCII (nearly always) the same test runs byte by byte, which gives the same answer and keeps a
/// keystroke over a large store cheap; anything else goes through Foundation.
struct ListMatchText: Sendable {
    let key: String
    let status: ExperimentStatus
    let type: SubjectType
    /// `description.lowercased()`.
    let description: String
    /// Whether `key` and `description` are both ASCII.
    let isASCII: Bool

    init(_ experiment: Experiment) {
        key = experiment.key
        status = experiment.status
        type = experiment.type
        description = experiment.description.lowercased()
        isASCII = Self.isASCII(key) && Self.isASCII(description)
    }

    /// Whether the experiment matches the filter `needle`.
    func matches(_ needle: ListNeedle) -> Bool {
        if status == needle.status || type == needle.type { return true }
        if isASCII, let bytes = needle.asciiBytes {
            return Self.contains(key, bytes) || Self.contains(description, bytes)
        }
        return key.contains(needle.text) || description.contains(needle.text)
    }

    private static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `text`'s UTF-8 contains `needle` (byte for byte).
    private static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ haystack in needle.withUnsafeBufferPointer { ByteSearch.contains($0, in: haystack) } }) {
            return found
        }
        return Array(text.utf8).withUnsafeBufferPointer { haystack in needle.withUnsafeBufferPointer { ByteSearch.contains($0, in: haystack) } }
    }
}

/// The list filter as `ListMatchText` tests it: lowercased, its bytes when it is ASCII, and the
/// status and type it names exactly (`status.rawValue == text` as an enum comparison).
struct ListNeedle: Sendable {
    let text: String
    let asciiBytes: [UInt8]?
    let status: ExperimentStatus?
    let type: SubjectType?

    init(_ filter: String) {
        text = filter.lowercased()
        status = ExperimentStatus(rawValue: text)
        type = SubjectType(rawValue: text)
        let bytes = Array(text.utf8)
        asciiBytes = bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
    }
}
