/// A substring test over UTF-8 bytes, ASCII letters compared case-insensitively.
///
/// Fast enough to run over 100,000 whitelist entries on every keystroke; other letters match
/// byte for byte.
struct FilterNeedle: Equatable, Sendable {
    /// The filter's bytes, ASCII letters lowercased.
    let bytes: [UInt8]

    init(_ text: String) { bytes = text.utf8.map(Self.lowered) }

    var isEmpty: Bool { bytes.isEmpty }

    /// Whether `text` contains the needle.
    func matches(_ text: String) -> Bool {
        guard !bytes.isEmpty else { return true }
        if let found = text.utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(search)
    }

    /// Whether everything this needle matches also matches `other` (it contains `other`).
    func narrows(_ other: FilterNeedle) -> Bool {
        other.bytes.withUnsafeBufferPointer { needle in
            bytes.withUnsafeBufferPointer { Self.find(needle, in: $0) }
        }
    }

    private func search(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { Self.find($0, in: haystack) }
    }

    /// `needle` is already lowered; `haystack` is lowered on the fly.
    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteSearch.contains(needle, in: haystack, fold: lowered)
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
