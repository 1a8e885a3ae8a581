import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentStore

/// `ByteWriter` with a sink: whatever the sizes of the pieces appended, the sink receives exactly
/// their bytes, in order, never more than one chunk at a time (a piece bigger than the chunk, such
/// as a copied history, goes through in chunk-sized slices instead of growing the buffer).
struct ByteWriterSinkTests {
    @Test(arguments: [
        [5, 3, 1],
        [150],
        [5, 150, 3],
        [64, 64, 1],
        [63, 2, 200, 64, 7],
        [1, 64, 0, 129],
    ])
    func theSinkGetsEveryByteInChunks(pieces: [Int]) {
        let total = pieces.reduce(0, +)
        let bytes = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var received: [UInt8] = []
        var largest = 0
        var writer = ByteWriter(chunk: 64) { chunk in
            received.append(contentsOf: chunk)
            largest = max(largest, chunk.count)
        }
        var offset = 0
        for piece in pieces {
            bytes[offset..<offset + piece].withUnsafeBufferPointer { writer.append($0) }
            offset += piece
        }
        writer.flush()
        #expect(received == bytes, "pieces \(pieces)")
        #expect(largest <= 64, "pieces \(pieces): a chunk of \(largest) bytes")
    }

    @Test func aBigPieceIsComparedAndWrittenInPlace() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("store.json")
        let original = (0..<1_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        try Data(original).write(to: URL(fileURLWithPath: path))
        var changed = original
        changed[700] = UInt8(ascii: "#")
        // A head, then most of the file as one piece (as a save copies the history), then the rest.
        let replaced = try FileSystem.replaceAtomically(path, original: Data(original), newMode: 0o644, chunk: 64) { writer in
            changed[..<10].withUnsafeBufferPointer { writer.append($0) }
            changed[10..<990].withUnsafeBufferPointer { writer.append($0) }
            changed[990...].withUnsafeBufferPointer { writer.append($0) }
        }
        #expect(replaced)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(changed))
        let unchanged = try FileSystem.replaceAtomically(path, original: Data(changed), newMode: 0o644, chunk: 64) { writer in
            changed.withUnsafeBufferPointer { writer.append($0) }
        }
        #expect(!unchanged, "the same bytes in one big piece replace nothing")
    }
}
