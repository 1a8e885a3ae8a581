import Foundation

/// A string's content in the file (no escapes, no control characters), and whether it is all ASCII.
typealias PlainText = (bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool)

/// The last text read for one field of consecutive records, reused while they repeat its bytes.
///
/// Entries imported or added together share their note, operator, variant and often their date;
/// reusing the previous `String` when the bytes are equal skips its UTF-8 check and its allocation
/// (a note over 15 bytes is a heap allocation per entry otherwise).
struct RepeatedText {
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var text = ""

    /// Whether `content` is the bytes read last.
    func repeats(_ content: PlainText) -> Bool { RepeatedText.same(content.bytes, bytes) }

    /// The text of `content`, the previous `String` when the bytes repeat; nil when it is not UTF-8.
    mutating func read(_ content: PlainText) -> String? {
        if repeats(content) { return text }
        guard let read = RepeatedText.text(content) else { return nil }
        (bytes, text) = (content.bytes, read)
        return read
    }

    /// A new `String` of `content`; nil when it is not UTF-8.
    static func text(_ content: PlainText) -> String? {
        content.isASCII ? String(decoding: content.bytes, as: UTF8.self) : ValidUTF8.string(content.bytes)
    }

    /// `cursor.string()`, the previous `String` when the next string has no escapes and repeats the
    /// bytes read last; anything else is read by `string()` itself.
    mutating func string(_ cursor: inout JSONCursor) -> String? {
        let start = cursor.nextTokenPosition()
        if let content = cursor.plainStringContent(), let text = read(content) { return text }
        cursor.rewind(to: start)
        return cursor.string()
    }

    /// Whether `content` is valid UTF-8 (always so for ASCII).
    static func isUTF8(_ content: PlainText) -> Bool {
        content.isASCII || text(content) != nil
    }

    /// `Identifier.isValidSubject` of the text, decided on the bytes for printable ASCII (no `String` made).
    static func isValidSubject(_ content: PlainText) -> Bool {
        if content.isASCII, (1...Identifier.maxSubjectLength).contains(content.bytes.count),
           !content.bytes.contains(0x7F) { return true }  // no byte below 0x20 in plain text
        return text(content).map(Identifier.isValidSubject) ?? false
    }

    /// Whether two byte runs are equal.
    static func same(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.baseAddress == rhs.baseAddress { return true }
        guard let a = lhs.baseAddress, let b = rhs.baseAddress else { return lhs.isEmpty }
        return memcmp(a, b, lhs.count) == 0
    }
}

/// The last date read for consecutive records, reused while they repeat its 20 bytes.
struct RepeatedDate {
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var date = Date(timeIntervalSince1970: 0)

    /// The date of exactly the store's form; nil for any other form.
    mutating func read(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        if RepeatedText.same(text, bytes) { return date }
        guard let seconds = StoreDate.seconds(parsing: text) else { return nil }
        (bytes, date) = (text, Date(timeIntervalSince1970: Double(seconds)))
        return date
    }
}
