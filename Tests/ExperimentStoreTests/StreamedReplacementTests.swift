import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentStore

/// `FileSystem.replaceAtomically` streaming in small chunks: the file ends up with exactly the new
/// bytes, and nothing is created or replaced when they equal the original.
struct StreamedReplacementTests {
    static let original = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    @Test(arguments: [
        ("identical", original, false),
        ("differs in the first chunk", Array("X123456789abcdefghijklmnopqrstuvwxyz".utf8), true),
        ("differs in a middle chunk", Array("0123456789abcdefghiXklmnopqrstuvwxyz".utf8), true),
        ("differs in the last byte", Array("0123456789abcdefghijklmnopqrstuvwxyZ".utf8), true),
        ("a strict prefix", Array("0123456789abcdefghijklmnopq".utf8), true),
        ("longer", Array("0123456789abcdefghijklmnopqrstuvwxyz and more".utf8), true),
        ("empty", [], true),
    ])
    func streamsExactlyTheNewBytes(label: String, bytes: [UInt8], replaces: Bool) throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("store.json")
        try Data(Self.original).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        let replaced = try FileSystem.replaceAtomically(path, original: Data(Self.original), newMode: 0o644, chunk: 7) { writer in
            // Pieces of uneven sizes, so chunk boundaries fall inside them.
            var rest = bytes[...]
            while !rest.isEmpty {
                let piece = rest.prefix(5)
                piece.withUnsafeBufferPointer { writer.append($0) }
                rest = rest.dropFirst(5)
            }
        }
        #expect(replaced == replaces, "\(label)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "\(label)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o640, "the mode is kept")
        #expect((attributes[.systemFileNumber] as? Int == inode) == !replaces, "an unchanged file is not replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["store.json"], "no temp file is left")
    }

    @Test func aNewFileGetsTheNewMode() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("new.json")
        let replaced = try FileSystem.replaceAtomically(path, original: nil, newMode: 0o644, chunk: 4) { $0.append("{}\n") }
        #expect(replaced)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o644)
    }
}
