import ExperimentCore
import Foundation

/// A byte buffer for the store writer and the CLI's batch output: growable and handed over as
/// `Data` without a copy, or fixed-size and flushed to a sink (a file, standard output) whenever it
/// fills (a piece bigger than the buffer goes to the sink unbuffered).
///
/// The store writer appends hundreds of megabytes in small pieces; `Data.append` per piece was
/// slow, and building an array first would hold the bytes twice at the end. The buffer is
/// `malloc`ed memory handed to `Data` with the `.free` deallocator, or freed if never taken.
package struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    package private(set) var count = 0
    private let sink: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// A growable buffer that starts at `capacity` bytes.
    package init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = ByteWriter.allocate(self.capacity)
        sink = nil
    }

    /// A buffer of `chunk` bytes that hands its bytes to `sink` whenever it fills (and on `flush`).
    package init(chunk: Int, sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        capacity = max(chunk, 64)
        base = ByteWriter.allocate(capacity)
        self.sink = sink
    }

    deinit { free(base) }

    /// Appends one byte.
    package mutating func append(_ byte: UInt8) {
        if count == capacity { makeRoom(for: 1) }
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`; with a sink, bytes that would not fit in the chunk go to it as they are.
    ///
    /// A save copies the whole history in one piece: copied into the chunk, it grew the buffer to
    /// the size of the file (a second file-sized allocation, every page of it faulted in).
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var bytes = bytes
        if let sink, count + bytes.count > capacity {
            flush()
            // Whole chunks straight from `bytes`, so the sink sees pieces of the usual size.
            while bytes.count >= capacity {
                sink(UnsafeBufferPointer(rebasing: bytes[..<capacity]))
                bytes = UnsafeBufferPointer(rebasing: bytes[capacity...])
            }
        }
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { makeRoom(for: bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of an array.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 of `text` as it is (no escaping).
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends the UTF-8 of a literal, e.g. `"\"added_at\": "`.
    package mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of `value`.
    package mutating func append(decimal value: Int) {
        append(utf8: String(value))
    }

    /// The bytes written, as `Data` that owns them.
    package consuming func data() -> Data {
        let result = Data(bytesNoCopy: base, count: count, deallocator: .free)
        base = ByteWriter.allocate(1)
        return result
    }

    /// Whether what was written so far is exactly `bytes`.
    package func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == count, let other = bytes.baseAddress else { return count == 0 }
        return memcmp(base, other, count) == 0
    }

    /// Hands what is buffered to the sink (nothing without one).
    package mutating func flush() {
        guard let sink, count > 0 else { return }
        sink(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    private mutating func makeRoom(for extra: Int) {
        flush()
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var next = capacity
        while next < needed { next *= 2 }
        guard let moved = realloc(base, next) else { fatalError("out of memory growing the store buffer to \(next) bytes") }
        base = moved.assumingMemoryBound(to: UInt8.self)
        capacity = next
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory allocating \(capacity) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }
}
