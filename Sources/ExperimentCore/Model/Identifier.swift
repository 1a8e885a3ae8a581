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
           bytes.withContiguousStorageIfAvailable({ $0.allSatisfy { (0x20..<0x7F).contains($0) } }) == true { return true }
        guard !text.isEmpty, !text.unicodeScalars.contains(where: isControl) else { return false }
        return text.utf8.count <= maxSubjectLength || text.count <= maxSubjectLength
    }

    /// Whether `text` starts or ends with whitespace (a space, a no-break space, …).
    ///
    /// Such a subject id is valid in a stored whitelist, but refused as input: `" user-42 "` would sit
    /// next to `user-42` as a different subject, and it is almost always a copy-and-paste slip.
    public static func hasOuterWhitespace(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return first.properties.isWhitespace || last.properties.isWhitespace
    }

    /// Whether `scalar` is a C0 or C1 control character or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
