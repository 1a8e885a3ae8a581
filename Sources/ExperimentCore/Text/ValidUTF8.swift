/// Bytes as a `String` only when they are valid UTF-8, on every OS the core runs on.
///
/// The standard library's `String(validating:as:)` needs macOS 15 / iOS 18; this decodes (invalid
/// sequences become U+FFFD) and keeps the text only when it re-encodes to the same bytes, which
/// holds exactly for valid UTF-8.
package enum ValidUTF8 {
    /// The text of `bytes`, or nil when they are not valid UTF-8.
    package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
