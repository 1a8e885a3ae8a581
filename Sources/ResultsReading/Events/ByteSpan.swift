/// Bytes a parsed row keeps (a subject id, a metric name), as a place in its piece's byte arena.
struct ByteSpan {
    let offset: Int32
    let count: Int32

    /// Appends `bytes` to `arena`; returns where they are.
    static func store(_ bytes: UnsafeBufferPointer<UInt8>, in arena: inout [UInt8]) -> ByteSpan {
        let span = ByteSpan(offset: Int32(truncatingIfNeeded: arena.count), count: Int32(truncatingIfNeeded: bytes.count))
        arena.append(contentsOf: bytes)
        return span
    }

    /// The bytes in `arena`.
    func bytes(in arena: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = arena.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base + Int(offset), count: Int(count))
    }
}
