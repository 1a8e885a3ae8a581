import Foundation

/// A regular file mapped read-only: its bytes as `Data` without copying them, and a way to drop
/// the pages already read from this process's resident set (the kernel reads them again on use).
///
/// A merge of three big stores walks the files once from start to end; mapped and released behind
/// the walk, they never sit in memory whole (their pages stay in the page cache, not in the process).
final class MappedFile {
    let data: Data
    private let base: UnsafeMutableRawPointer?
    private let count: Int
    /// How far the pages are released already.
    private var released = 0

    /// The file at `path` mapped; nil when it is missing, not a regular file, empty or cannot be mapped.
    init?(path: String) {
        guard let (mapped, count) = FileSystem.mapReadOnly(path) else { return nil }
        self.count = count
        base = mapped
        data = Data(bytesNoCopy: mapped, count: count, deallocator: .none)
    }

    deinit {
        if let base { FileSystem.unmap(base, count: count) }
    }

    /// Drops the resident pages wholly before `offset` (those not dropped yet).
    func release(before offset: Int) {
        let page = FileSystem.pageSize
        let end = min(offset, count) / page * page
        guard let base, end > released else { return }
        FileSystem.dropPages(base + released, count: end - released)
        released = end
    }

    /// Drops every resident page and starts over (the next walk releases from the start again).
    func releaseAll() {
        guard let base else { return }
        FileSystem.dropPages(base, count: count)
        released = 0
    }
}
