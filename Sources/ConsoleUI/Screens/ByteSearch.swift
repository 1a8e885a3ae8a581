/// A substring test over UTF-8 bytes, for the list and whitelist filters.
enum ByteSearch {
    /// Whether `haystack`, each byte passed through `fold` first, contains `needle` (already folded).
    ///
    /// Naive search: keys, descriptions and subject ids are tens of bytes.
    @inline(__always)
    static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>,
                         fold: (UInt8) -> UInt8 = { $0 }) -> Bool {
        let count = needle.count
        guard count > 0 else { return true }
        guard count <= haystack.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - count) where fold(haystack[start]) == first {
            var offset = 1
            while offset < count, fold(haystack[start + offset]) == needle[offset] { offset += 1 }
            if offset == count { return true }
        }
        return false
    }
}
