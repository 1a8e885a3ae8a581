/// The UTF-8 bytes of four strings of a buffer at once, lent in place for the batch kernels.
///
/// `utf8.withContiguousStorageIfAvailable` lends a native string's bytes without copying them (a
/// small string's at most 15 bytes are copied to the stack) and, for a string read in place from a
/// buffer, without touching its reference count. Nesting four calls keeps four ids' bytes valid
/// together, so that their hashes can run side by side; the pointers never leave the closures.
enum UTF8Quad {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// `body` over the bytes of `strings[start ..< start + 4]`; nil when one of them has no contiguous
    /// UTF-8 storage (a bridged string), in which case `body` is not called.
    ///
    /// - Precondition: `start + 4 <= strings.count`.
    @inline(__always)
    static func withBytes<Result>(of strings: UnsafeBufferPointer<String>, at start: Int,
                                  _ body: (Bytes, Bytes, Bytes, Bytes) -> Result) -> Result? {
        let result: Result?? = strings[start].utf8.withContiguousStorageIfAvailable { (a: Bytes) -> Result? in
            let result: Result?? = strings[start + 1].utf8.withContiguousStorageIfAvailable { (b: Bytes) -> Result? in
                let result: Result?? = strings[start + 2].utf8.withContiguousStorageIfAvailable { (c: Bytes) -> Result? in
                    strings[start + 3].utf8.withContiguousStorageIfAvailable { (d: Bytes) -> Result in body(a, b, c, d) }
                }
                return result ?? nil
            }
            return result ?? nil
        }
        return result ?? nil
    }
}
