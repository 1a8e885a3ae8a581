/// Bytes as a `String` only when they are valid UTF-8, on every OS the core runs on.
///
/// The standard library's `String(validating:as:)` needs macOS 15 / iOS 18; this decodes (invalid
/// sequences become U+FFFD) and keeps the text only when it re-encodes to the same bytes, which
/// holds exactly for valid UTF-8.
package enum ValidUTF8 {
    /// The text of `bytes`, or nil when they are not valid UTF-8.
    ///
    /// Other modules call this unspecialized, where a generic `elementsEqual` costs witness calls per
    /// byte (two thirds of a 250,000-row import); so bytes in one piece of memory (arrays, `Data`,
    /// buffers: every caller's) are compared by `string(buffer:)`, whose loop is compiled for them.
    package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        if let text = bytes.withContiguousStorageIfAvailable({ string(buffer: $0) }) { return text }
        return decodedString(bytes)
    }

    /// `string(_:)` for bytes in one piece of memory: the same decoding and comparison.
    static func string(buffer: UnsafeBufferPointer<UInt8>) -> String? {
        var text = String(decoding: buffer, as: UTF8.self)
        let same = text.withUTF8 { $0.elementsEqual(buffer) }
        return same ? text : nil
    }

    /// The plain path, for any collection of bytes (and the tests' reference).
    package static func decodedString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
