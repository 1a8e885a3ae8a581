/// The character rules for experiment keys, variant names, subject ids and salts (SPEC §1).
public enum Identifier {
    /// The longest key or variant name: one leading character and up to 63 more.
    public static let maxNameLength = 64
    /// The longest subject id or salt, in Unicode scalars (code points), not grapheme clusters:
    /// `a` followed by 3,000 combining accents is one character but 3,001 scalars, and refused.
    public static let maxSubjectLength = 256

    /// Whether `text` is a valid experiment key or variant name: `[a-z0-9][a-z0-9_.-]{0,63}`.
    public static func isValidName(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maxNameLength, isLowerAlnum(first) else { return false }
        return bytes.dropFirst().allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// Whether `text` is a valid subject id or salt: 1–256 Unicode scalars, no control or invisible characters.
    public static func isValidSubject(_ text: String) -> Bool {
        // Printable ASCII, the common case, is checked byte by byte.
        let bytes = text.utf8
        if (1...maxSubjectLength).contains(bytes.count),
           bytes.withContiguousStorageIfAvailable(isPrintableASCII) == true { return true }
        let scalars = text.unicodeScalars
        guard !text.isEmpty, !scalars.contains(where: { isControl($0) || isInvisible($0) }) else { return false }
        return scalars.count <= maxSubjectLength
    }

    /// Whether `scalar` is a character that shows nothing and means nothing in an id: the byte
    /// order mark U+FEFF (a file's first bytes, carried into an id by `cat` or a spreadsheet), zero
    /// width space U+200B, word joiner and invisible operators U+2060–2064, U+180E. Two ids that
    /// differ only by one of them look alike everywhere and bucket differently.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFEFF, 0x200B, 0x2060...0x2064, 0x180E: true
        default: false
        }
    }

    /// Whether `text` starts or ends with whitespace (a space, a no-break space, …).
    ///
    /// Such a subject id is valid in a stored whitelist, but refused as input: `" user-42 "` would sit
    /// next to `user-42` as a different subject, and it is almost always a copy-and-paste slip.
    public static func hasOuterWhitespace(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return first.properties.isWhitespace || last.properties.isWhitespace
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
