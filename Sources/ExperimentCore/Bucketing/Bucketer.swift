/// Maps subjects to buckets 0..<10000 for one salt: GrowthBook's hash v2 scaled to 10 000 buckets.
///
/// `bucket = fnv1a32(decimal(fnv1a32(utf8(salt + subject)))) mod 10000`. The FNV state after the
/// salt is computed once, so each call hashes only the subject's bytes.
public struct Bucketer: Hashable, Sendable {
    /// The FNV-1a state after feeding the salt.
    @usableFromInline package let saltState: FNV1a

    public init(salt: String) {
        var fnv = FNV1a()
        fnv.add(salt)
        saltState = fnv
    }

    /// The bucket of `subject` under this salt.
    @inlinable public func bucket(of subject: String) -> Int {
        DecimalHash.shared.bucket(firstHash: firstHash(of: subject))
    }

    /// `fnv1a32(utf8(salt + subject))`, the first of the two hashes.
    @inlinable public func firstHash(of subject: String) -> UInt32 {
        var first = saltState
        first.add(subject)
        return first.value
    }

    /// `fnv1a32(salt + subject)` for a subject given as its UTF-8 bytes.
    @inlinable @inline(__always)
    package func firstHash(ofUTF8 subject: UnsafeBufferPointer<UInt8>) -> UInt32 {
        FNV1a.hash(continuing: saltState.value, subject)
    }

    /// FNV-1a of the unpadded base-10 digits of `value`, computed without building a string.
    @inlinable package static func rehashDecimal(_ value: UInt32) -> UInt32 {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
                count += 1
            } while rest != 0
        }
        var hash = FNV1a.offsetBasis
        withUnsafeBytes(of: &digits) { buffer in
            var index = count - 1
            while index >= 0 {
                hash = (hash ^ UInt32(buffer[index])) &* FNV1a.prime
                index -= 1
            }
        }
        return hash
    }

    /// The bucket of `subject` under `salt`, computed from scratch.
    public static func bucket(salt: String, subject: String) -> Int {
        Bucketer(salt: salt).bucket(of: subject)
    }
}
