import ExperimentCore
import Foundation

/// A store file as a merge or a diff reads it: its bytes, the validated snapshot with every
/// whitelist left in the bytes (checked, not kept), and where each experiment sits.
struct WrittenStore {
    /// The file, mapped: its pages are released once read, and behind a merge's walk.
    let file: MappedFile
    let snapshot: StoreSnapshot
    let spans: [String: WrittenExperiment]

    var data: Data { file.data }

    /// The store at `path`; nil when it is missing, unreadable, empty, invalid or not all the writer's
    /// bytes: then the caller reads it whole (`StoreFile.load`), which decides and explains.
    init?(path: String) {
        guard let file = MappedFile(path: FileSystem.resolvingLinks(path)),
              let (snapshot, spans) = StoreSnapshot.readLeavingEntries(file.data, path: path, recognising: StoreWriter.writtenSpan)
        else { return nil }
        file.releaseAll()
        (self.file, self.snapshot, self.spans) = (file, snapshot, spans)
    }

    /// The bytes of `key`'s experiment, nil when there is none.
    func object(_ key: String) -> Range<Int>? { spans[key]?.object }
}

/// Byte ranges of files compared without copying them.
enum WrittenBytes {
    /// Whether `a`'s bytes in `left` equal `b`'s in `right` (both absent counts as equal).
    static func same(_ left: UnsafeBufferPointer<UInt8>, _ a: Range<Int>?, _ right: UnsafeBufferPointer<UInt8>, _ b: Range<Int>?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        guard a.count > 0, let one = left.baseAddress, let two = right.baseAddress else { return true }
        return memcmp(one + a.lowerBound, two + b.lowerBound, a.count) == 0
    }

}
