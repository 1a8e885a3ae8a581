/// 32-bit FNV-1a over bytes, resumable so a salt's state can be computed once and reused.
public struct FNV1a: Hashable, Sendable {
    public static let offsetBasis: UInt32 = 2_166_136_261
    public static let prime: UInt32 = 16_777_619

    @usableFromInline var state: UInt32

    /// The hash of everything fed so far.
    public var value: UInt32 { state }

    /// A fresh hash (the offset basis).
    public init() { state = FNV1a.offsetBasis }

    /// Feeds one byte.
    @inlinable public mutating func add(_ byte: UInt8) {
        state = (state ^ UInt32(byte)) &* FNV1a.prime
    }

    /// Feeds every UTF-8 byte of `text`, without copying when the string is contiguous.
    @inlinable public mutating func add(_ text: String) {
        var hash = state
        let fast: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* FNV1a.prime }
        }
        if fast == nil {
            for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* FNV1a.prime }
        }
        state = hash
    }

    /// The state `state` after feeding `bytes`.
    @inlinable @inline(__always)
    package static func hash(continuing state: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash = state
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* prime }
        return hash
    }

    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt32 {
        var fnv = FNV1a()
        fnv.add(text)
        return fnv.value
    }
}
