import Foundation

/// Texts that recur anywhere among many records, read once and shared while a file is read.
///
/// A history's `before` and `after` texts repeat across a million entries (`running`, a ramp's
/// weights, `draft control=50,treatment=50`), but not from one entry to the next as a whitelist's
/// do (`RepeatedText`). A text over 15 bytes is a heap allocation per record when read on its
/// own, held as long as the snapshot is; here equal bytes give the same `String`. Up to
/// `capacity` distinct texts are remembered (keyed by their bytes in the file, valid while it is
/// read); texts beyond that, and short ones (stored inline), are made as usual.
struct SharedTexts {
    static let capacity = 4_096
    private var texts: [Bytes: String] = [:]

    /// The next string, escapes decoded; nil when it is not a valid JSON string of valid UTF-8.
    mutating func string(_ cursor: inout JSONCursor) -> String? {
        cursor.skipWhitespace()
        let start = cursor.position
        guard let content = cursor.plainStringContent() else { return cursor.string() }
        guard content.bytes.count > 15 else { return RepeatedText.text(content) }
        let key = Bytes(bytes: content.bytes)
        if let text = texts[key] { return text }
        guard let text = RepeatedText.text(content) else {
            cursor.rewind(to: start)
            return nil
        }
        if texts.count < Self.capacity { texts[key] = text }
        return text
    }

    /// A string or null (`decodeIfPresent`); nil when it is neither.
    mutating func optionalString(_ cursor: inout JSONCursor) -> String?? {
        cursor.consume(literal: "null") ? .some(nil) : string(&cursor).map { .some($0) }
    }

    /// Bytes of the file, hashed and compared by content.
    private struct Bytes: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }

        static func == (lhs: Bytes, rhs: Bytes) -> Bool { RepeatedText.same(lhs.bytes, rhs.bytes) }
    }
}
