#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

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

    public static func == (lhs: SubjectID, rhs: SubjectID) -> Bool {
        guard lhs.text.utf8.count == rhs.text.utf8.count else { return false }
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == b.count }
                return memcmp(x, y, a.count) == 0
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Calls `body` with the UTF-8 bytes, in place for native strings (no copy, no reference count).
    @inline(__always)
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// Byte-wise order, so sorting is the same in every process and for every normalisation.
    public static func < (lhs: SubjectID, rhs: SubjectID) -> Bool { SubjectOrder.precedes(lhs.text, rhs.text) }
}
