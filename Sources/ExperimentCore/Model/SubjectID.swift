/// A subject id compared byte for byte, as bucketing hashes it.
///
/// Swift's `String ==` treats canonically equivalent text as equal (`é` precomposed equals `e` +
/// combining accent), but those are different subjects with different buckets; whitelist lookups
/// must agree with the hash, so they key on the exact UTF-8 bytes.
public struct SubjectID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }

    public var description: String { text }

    public static func == (lhs: SubjectID, rhs: SubjectID) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte-wise order, so sorting is the same in every process and for every normalisation.
    public static func < (lhs: SubjectID, rhs: SubjectID) -> Bool { lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8) }
}
