#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Subjects in UTF-8 byte order, as `SubjectID` sorts them and the store file lists them.
///
/// Sorts small plain keys (the first 16 bytes as two big-endian words, zero-padded, which keeps
/// byte order because subject ids hold no NUL) and compares whole subjects only on ties, so the main
/// sort compares two integers and never copies an entry.
public enum SubjectOrder {
    /// Whether `lhs` comes before `rhs` in UTF-8 byte order.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        SubjectID(lhs).withUTF8 { left in SubjectID(rhs).withUTF8 { right in precedes(left, right) } }
    }

    /// Whether the bytes `lhs` come before `rhs` (`memcmp`, then the shorter first).
    package static func precedes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        let shared = min(lhs.count, rhs.count)
        if shared > 0, let a = lhs.baseAddress, let b = rhs.baseAddress {
            let order = memcmp(a, b, shared)
            if order != 0 { return order < 0 }
        }
        return lhs.count < rhs.count
    }

    /// `entries` sorted by subject.
    public static func sorted(_ entries: some Collection<WhitelistEntry>) -> [WhitelistEntry] {
        let entries = Array(entries)
        return order(entries.map(\.subject)).map { entries[$0] }
    }

    /// The positions of `whitelist` in subject order, to walk a large whitelist sorted without copying it.
    public static func sortedIndices(of whitelist: [SubjectID: WhitelistEntry]) -> [Dictionary<SubjectID, WhitelistEntry>.Index] {
        let positions = Array(whitelist.indices)
        return order(positions.map { whitelist[$0].key.text }).map { positions[$0] }
    }

    /// The offsets of `subjects` in byte order of the subjects.
    ///
    /// Sorts plain 16-byte prefixes first, then re-sorts each run of equal prefixes (only subjects
    /// longer than 16 bytes can tie) by whole subject, so the main sort's comparison is two integers.
    static func order(_ subjects: [String]) -> [Int] {
        var keys: [Key] = []
        keys.reserveCapacity(subjects.count)
        for (offset, subject) in subjects.enumerated() {
            keys.append(SubjectID(subject).withUTF8 { Key(high: word($0, from: 0), low: word($0, from: 8), offset: offset) })
        }
        keys.sort { ($0.high, $0.low) < ($1.high, $1.low) }
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count, keys[end].high == keys[start].high, keys[end].low == keys[start].low { end += 1 }
            if end - start > 1 { keys[start..<end].sort { precedes(subjects[$0.offset], subjects[$1.offset]) } }
            start = end
        }
        return keys.map(\.offset)
    }

    /// A sort key: the first 16 bytes of a subject, and where it is.
    private struct Key {
        var high: UInt64
        var low: UInt64
        var offset: Int
    }

    /// Eight bytes from `start` as a big-endian word, zero-padded past the end.
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in start..<start + 8 {
            value = value << 8 | (offset < bytes.count ? UInt64(bytes[offset]) : 0)
        }
        return value
    }
}
