/// The character rules for experiment keys, variant names, subject ids and salts (SPEC §1).
public enum Identifier {
    /// The longest key or variant name: one leading character and up to 63 more.
    public static let maxNameLength = 64
    /// The longest subject id or salt, in characters.
    public static let maxSubjectLength = 256

    /// Whether `text` is a valid experiment key or variant name: `[a-z0-9][a-z0-9_.-]{0,63}`.
    public static func isValidName(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maxNameLength, isLowerAlnum(first) else { return false }
        return bytes.dropFirst().allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// Whether `text` is a valid subject id or salt: 1–256 characters, no control characters.
    public static func isValidSubject(_ text: String) -> Bool {
        // Printable ASCII, the common case, is checked byte by byte.
        let bytes = text.utf8
        if (1...maxSubjectLength).contains(bytes.count),
           bytes.withContiguousStorageIfAvailable(isPrintableASCII) == true { return true }
        guard !text.isEmpty, !text.unicodeScalars.contains(where: isControl) else { return false }
        return text.utf8.count <= maxSubjectLength || text.count <= maxSubjectLength
    }

    /// Whether every byte is in 0x20..<0x7F, eight at a time (a whitelist's million subjects are checked on every load).
    private static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            let del = word ^ (ones &* 0x7F)
            // No high bit, no byte below 0x20 (no borrow into a high bit), no byte equal to 0x7F.
            guard word & highs == 0, (word &- ones &* 0x20) & highs == 0, (del &- ones) & ~del & highs == 0 else { return false }
            offset += 8
        }
        return bytes[offset...].allSatisfy { (0x20..<0x7F).contains($0) }
    }

    /// Whether `scalar` is a C0 or C1 control character or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
