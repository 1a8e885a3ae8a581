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
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        count = Int(info.st_size)
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
        base = mapped
        data = Data(bytesNoCopy: mapped, count: count, deallocator: .none)
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// Drops the resident pages wholly before `offset` (those not dropped yet).
    func release(before offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset, count) / page * page
        guard let base, end > released else { return }
        madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }

    /// Drops every resident page and starts over (the next walk releases from the start again).
    func releaseAll() {
        guard let base else { return }
        madvise(base, count, MADV_DONTNEED)
        released = 0
    }
}
