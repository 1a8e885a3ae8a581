#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore
import Foundation

/// The one file that calls the C file API: locks, durable atomic replacement, reads and stats.
package enum FileSystem {
    /// A failed system call, with the errno text.
    package struct Failure: Error {
        let operation: String
        let code: Int32
        /// Said instead of the errno text when the call succeeded but the file is not what it must be.
        var detail: String?
        package var reason: String { detail ?? "\(operation) failed: \(String(cString: strerror(code)))" }

        /// What a streamed write throws to give up: nothing is replaced.
        package static let abandoned = Failure(operation: "write", code: ECANCELED, detail: "the write was abandoned")
    }

    /// What a store path names, looked at before anything is locked or created.
    enum Kind {
        case missing
        /// A regular file, and whether this process may write it (`faccessat` with the effective ids).
        case regular(writable: Bool)
        case other(Failure)
    }

    /// What `path` names now: a missing file, a regular one, or why it cannot be a store (a FIFO, a
    /// device, a directory, a symlink loop); never opens it, so nothing blocks.
    static func kind(_ path: String) -> Kind {
        guard !path.isEmpty else { return .other(Failure(operation: "stat", code: ENOENT, detail: "the path is empty")) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? .missing : .other(Failure(operation: "stat", code: errno))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .other(Failure(operation: "stat", code: 0, detail: notRegular(info.st_mode))) }
        return .regular(writable: faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0)
    }

    /// Why a file of `mode` is no store.
    private static func notRegular(_ mode: mode_t) -> String {
        "it is \(FileKindText.irregular(mode: mode) ?? "not a regular file"), not a regular file"
    }

    /// Mode and owner of an existing file, kept across replacements.
    struct Ownership: Hashable {
        let mode: mode_t
        let owner: uid_t
        let group: gid_t
    }

    /// What identifies one version of a file cheaply: inode, size and modification time.
    struct Fingerprint: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modifiedSeconds: Int
        let modifiedNanoseconds: Int
    }

    /// The path with every symlink resolved, so writes go through to the link's target.
    static func resolvingLinks(_ path: String) -> String {
        var target = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(target, &buffer, buffer.count - 1)
            guard length > 0 else { return target }
            let link = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            target = link.hasPrefix("/") ? link : (directory(of: target) as NSString).appendingPathComponent(link)
        }
        return target
    }

    /// The directory part of `path` (`.` for a bare file name).
    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// The whole file, or nil when it does not exist; anything but a regular file is refused unopened.
    ///
    /// `O_NONBLOCK` keeps a FIFO (or a device) from blocking the open; regular files ignore it.
    static func read(_ path: String) throws(Failure) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(operation: "open", code: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(operation: "fstat", code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(operation: "open", code: 0, detail: notRegular(info.st_mode)) }
        // One spare byte, so the read that finds the end never grows (and zero-fills) the buffer.
        var data = Data(count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == data.count { data.count += max(4096, data.count / 2) }
            let count = data.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", code: errno)
            }
            if count == 0 { break }
            filled += count
        }
        data.count = filled
        return data
    }

    /// A user-named input file (a whitelist import, a subject list) read whole, at most `limit` bytes.
    ///
    /// A device never ends (`/dev/zero`) and a directory holds no text: both are refused unopened. A
    /// FIFO is a stream from another process (`<(…)`), read as it comes; a regular file longer than
    /// `limit`, or a stream that goes past it, is refused (`tooLarge`) without reading the rest.
    package static func readInput(_ path: String, limit: Int) throws(InputFailure) -> Data {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else {
            throw .unreadable(path.isEmpty || errno == ENOENT ? "it does not exist" : String(cString: strerror(errno)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else {
            throw .unreadable("it is \(FileKindText.irregular(mode: info.st_mode) ?? "not a regular file"), not a file")
        }
        guard kind != S_IFREG || info.st_size <= limit else { throw .tooLarge(limit: limit) }
        // A regular file opens without blocking; a FIFO waits for its writer, as a reader of a pipe does.
        let fd = open(path, O_RDONLY | O_CLOEXEC | (kind == S_IFREG ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        // What was opened is what was looked at: a path swapped for a device meanwhile is still refused.
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == kind else { throw .unreadable("it changed while being opened") }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// Why an input file was not read: unreadable (missing, a device, a directory, an I/O error) or too large.
    package enum InputFailure: Error, Equatable {
        case unreadable(String)
        case tooLarge(limit: Int)
    }

    /// Mode and owner of `path`, or nil when it does not exist.
    static func ownership(_ path: String) -> Ownership? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Ownership(mode: info.st_mode & 0o7777, owner: info.st_uid, group: info.st_gid)
    }

    /// The file's current fingerprint, or nil when it does not exist.
    static func fingerprint(_ path: String) -> Fingerprint? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Fingerprint(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                           modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// An exclusive `flock` on `path` (created if needed with `like`'s permission bits and owner), polled until `deadline`.
    ///
    /// After locking, the path must still name the locked file (same device and inode), else the
    /// lock is taken again on what the path names now: a waiter on a lock file that was deleted (a
    /// cleanup script, `git clean`) or a store that was replaced must not go on. An existing lock
    /// file this process may not write is locked through a read-only descriptor (`flock` needs no more).
    static func lock(_ path: String, until deadline: Date, like: Ownership?) throws(LockError) -> FileLock {
        while true {
            let fd = try openLockFile(path, like: like)
            if let lock = try hold(fd, named: path, until: deadline) { return lock }
        }
    }

    /// `lock(_:until:like:)` for `timeout` seconds from now, a new lock file made `0644`.
    static func lock(_ path: String, timeout: Double) throws(LockError) -> FileLock {
        try lock(path, until: Date().addingTimeInterval(timeout), like: nil)
    }

    /// An exclusive `flock` on the existing regular file `path` itself (read-only), with the same
    /// identity check as `lock`; nil when it no longer exists.
    ///
    /// Saves replace the store by `rename`, so a writer that locked the file it read holds off every
    /// other writer until that very file is replaced — even one that locked a new lock file after
    /// the old one was deleted under us.
    static func lockExisting(_ path: String, until deadline: Date) throws(LockError) -> FileLock? {
        while true {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if fd < 0, errno == ENOENT { return nil }
            guard fd >= 0 else { throw .failed(Failure(operation: "open", code: errno)) }
            if let lock = try hold(fd, named: path, until: deadline) { return lock }
        }
    }

    /// Locks `fd`, polling until `deadline`; nil (the descriptor closed) when `path` no longer names it.
    private static func hold(_ fd: Int32, named path: String, until deadline: Date) throws(LockError) -> FileLock? {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw .failed(Failure(operation: "flock", code: code))
            }
            guard Date() < deadline else {
                close(fd)
                throw .timedOut
            }
            usleep(5_000)
        }
        var held = stat(), named = stat()
        if fstat(fd, &held) == 0, lstat(path, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino {
            return FileLock(descriptor: fd)
        }
        close(fd)
        guard Date() < deadline else { throw .timedOut }
        return nil
    }

    /// Opens (or creates) the lock file without following a symlink or blocking; it must be a regular file.
    private static func openLockFile(_ path: String, like: Ownership?) throws(LockError) -> Int32 {
        let flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        while true {
            var fd = open(path, O_RDWR | flags)
            if fd < 0, errno == EACCES { fd = open(path, O_RDONLY | flags) }
            if fd < 0, errno == ENOENT {
                fd = open(path, O_RDWR | O_CREAT | O_EXCL | flags, 0o600)
                if fd < 0, errno == EEXIST { continue }
                if fd >= 0 { adopt(fd, like.map { Ownership(mode: $0.mode & 0o666, owner: $0.owner, group: $0.group) }
                                        ?? Ownership(mode: 0o644, owner: geteuid(), group: getegid())) }
            }
            guard fd >= 0 else { throw .failed(Failure(operation: "open lock file", code: errno)) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw .failed(Failure(operation: "open lock file", code: 0, detail: "the lock file \(path) is not a regular file"))
            }
            return fd
        }
    }

    /// Gives the open file `fd` the owner and group of `like` where this process may (the group
    /// alone when only that is allowed, neither when not), then its mode: `fchown` clears set-id bits.
    @discardableResult
    static func adopt(_ fd: Int32, _ like: Ownership) -> Failure? {
        if like.owner != geteuid() || like.group != getegid(), fchown(fd, like.owner, like.group) != 0 {
            guard errno == EPERM else { return Failure(operation: "fchown", code: errno) }
            if fchown(fd, uid_t.max, like.group) != 0, errno != EPERM { return Failure(operation: "fchown", code: errno) }
        }
        return fchmod(fd, like.mode) == 0 ? nil : Failure(operation: "fchmod", code: errno)
    }

    /// Removes the temp files beside `path` that no live writer owns (a writer killed mid-save).
    ///
    /// Called under the store's lock, which every writer holds while its temp file exists; the
    /// process id in the name is checked too, so a writer that lost its lock file is still spared.
    static func removeOrphanedTemps(of path: String) {
        let directory = directory(of: path)
        let prefix = ".\((path as NSString).lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(owner), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink((directory as NSString).appendingPathComponent(name))
        }
    }

    /// Why a lock was not taken.
    enum LockError: Error {
        case timedOut
        case failed(Failure)
    }

    /// Replaces `path` with the bytes `write` streams, so a crash leaves the old or the new file, never a mix.
    ///
    /// The bytes are compared with `original` (the file as read) while they stream: nothing is
    /// created as long as they match, so rewriting an unchanged store touches nothing (returns
    /// false). From the first difference they go to a temp file in the same directory with the old
    /// file's mode and owner (or `newMode`), which is `fsync`ed, `rename`d over `path`, and the
    /// directory `fsync`ed. Memory stays at one `chunk`, whatever the size of the file.
    static func replaceAtomically(_ path: String, original: Data?, newMode: mode_t, chunk: Int = 1 << 20,
                                  write: (inout ByteWriter) throws(Failure) -> Void) throws(Failure) -> Bool {
        let replacement = Replacement(path: path, original: original, newMode: newMode)
        var writer = ByteWriter(chunk: chunk) { replacement.accept($0) }
        do {
            try write(&writer)
        } catch {
            replacement.abandon()
            throw error
        }
        writer.flush()
        return try replacement.finish()
    }

    /// One streamed replacement: compares, then writes the temp file from the first differing chunk.
    private final class Replacement {
        let path: String
        let original: Data?
        let newMode: mode_t
        /// Bytes streamed so far.
        var offset = 0
        var descriptor: Int32 = -1
        var temp: String?
        var failure: Failure?

        init(path: String, original: Data?, newMode: mode_t) {
            self.path = path
            self.original = original
            self.newMode = newMode
        }

        func accept(_ chunk: UnsafeBufferPointer<UInt8>) {
            guard failure == nil else { return }
            if descriptor < 0 {
                if matchesOriginal(chunk) {
                    offset += chunk.count
                    return
                }
                failure = openTemp()
            }
            if failure == nil { failure = writeAll(chunk) }
            offset += chunk.count
        }

        /// Closes and removes the temp file, if one was created: the file stays as it was.
        func abandon() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            if let temp { unlink(temp) }
            temp = nil
        }

        /// Renames the temp file into place; false when every byte matched the original.
        func finish() throws(Failure) -> Bool {
            if failure == nil, descriptor < 0 {
                if let original, offset == original.count { return false }
                failure = openTemp()
            }
            if failure == nil, fsync(descriptor) != 0 { failure = Failure(operation: "fsync", code: errno) }
            if descriptor >= 0, close(descriptor) != 0, failure == nil { failure = Failure(operation: "close", code: errno) }
            descriptor = -1
            if failure == nil, let temp, rename(temp, path) != 0 { failure = Failure(operation: "rename", code: errno) }
            if let failure {
                if let temp { unlink(temp) }
                throw failure
            }
            syncDirectory(directory(of: path))
            return true
        }

        private func matchesOriginal(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let original, offset + chunk.count <= original.count else { return false }
            return original.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress, let other = chunk.baseAddress else { return chunk.isEmpty }
                return memcmp(start + offset, other, chunk.count) == 0
            }
        }

        /// Removes orphaned temp files, creates this one with the old file's mode and owner (see `adopt`) and writes the matching prefix.
        private func openTemp() -> Failure? {
            let directory = directory(of: path)
            let existing = ownership(path)
            let name = (path as NSString).lastPathComponent
            removeOrphanedTemps(of: path)
            let temp = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            descriptor = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return Failure(operation: "create temp file", code: errno) }
            self.temp = temp
            if let failure = adopt(descriptor, existing ?? Ownership(mode: newMode, owner: geteuid(), group: getegid())) { return failure }
            guard offset > 0, let original else { return nil }
            return original.withUnsafeBytes { writeAll(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[0..<offset])) }
        }

        private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) -> Failure? {
            FileSystem.writeAll(descriptor, bytes)
        }
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and EINTR.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Failure? {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return Failure(operation: "write", code: errno)
            }
            written += count
        }
        return nil
    }

    /// Where the file's last whole line ends: `size` when it ends in a newline (or is empty), else
    /// just past its last newline (0 without one), so the part of a line a crash left behind is cut.
    private static func wholeLinesEnd(_ fd: Int32, size: off_t) throws(Failure) -> off_t {
        var end = size
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while end > 0 {
            let count = Int(min(end, off_t(buffer.count)))
            let start = end - off_t(count)
            let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, start) }
            if read < 0, errno == EINTR { continue }
            guard read == count else { throw Failure(operation: "read", code: read < 0 ? errno : EIO) }
            if let last = buffer[0..<count].lastIndex(of: 0x0A) { return start + off_t(last) + 1 }
            end = start
        }
        return 0
    }

    /// Appends `bytes` to the regular file `path` (created with `newMode` when missing) durably and whole.
    ///
    /// The file is held under an exclusive `flock` for the append, so writers in any thread or
    /// process never interleave; the bytes go in with `O_APPEND` and are `fsync`ed (a new file's
    /// directory too) before this returns. When a write fails part-way the file is cut back to its
    /// length before the append, and a part line a crash left at its end is cut before appending:
    /// the file holds whole lines only (`bytes` ends with a newline).
    package static func appendDurably(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, newMode: mode_t = 0o644) throws(Failure) {
        let existed = access(path, F_OK) == 0
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, newMode)
        guard fd >= 0 else { throw Failure(operation: "open", code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(operation: "fstat", code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(operation: "open", code: EINVAL, detail: notRegular(info.st_mode)) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(operation: "flock", code: errno) }
        }
        defer { flock(fd, LOCK_UN) }
        guard fstat(fd, &info) == 0 else { throw Failure(operation: "fstat", code: errno) }
        let before = try wholeLinesEnd(fd, size: info.st_size)
        if before < info.st_size, ftruncate(fd, before) != 0 { throw Failure(operation: "ftruncate", code: errno) }
        var failure = writeAll(fd, bytes)
        if failure == nil, fsync(fd) != 0 { failure = Failure(operation: "fsync", code: errno) }
        if let failure {
            _ = ftruncate(fd, before)
            _ = fsync(fd)
            throw failure
        }
        if !existed { syncDirectory(directory(of: path)) }
    }

    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// A held `flock`; released when closed or when the process dies, so a stale lock file never blocks.
final class FileLock {
    private var descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Releases the lock (idempotent).
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

extension FileSystem {
    /// A regular, non-empty file at `path` mapped read-only and privately; nil when it is missing,
    /// not a regular file, empty or cannot be mapped. Unmap it with `unmap`.
    static func mapReadOnly(_ path: String) -> (base: UnsafeMutableRawPointer, count: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        let count = Int(info.st_size)
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
        return (mapped, count)
    }

    /// Unmaps what `mapReadOnly` mapped.
    static func unmap(_ base: UnsafeMutableRawPointer, count: Int) {
        munmap(base, count)
    }

    /// Drops the resident pages of `count` mapped bytes at `base` (the kernel reads them again on use).
    static func dropPages(_ base: UnsafeMutableRawPointer, count: Int) {
        madvise(base, count, MADV_DONTNEED)
    }

    /// The size of a memory page.
    static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }
}

extension FileSystem {
    /// What `signalGroup` sends.
    enum GroupSignal {
        /// SIGTERM: end, letting handlers run.
        case terminate
        /// SIGKILL: end, no handler.
        case kill
        /// No signal (0): only whether the group still holds a process.
        case probe
    }

    /// Sends `signal` to every process of the process group `group` (a child started as the leader of
    /// its own group, as Foundation starts each); whether any process of the group was there.
    @discardableResult
    static func signalGroup(_ group: Int32, _ signal: GroupSignal) -> Bool {
        guard group > 0 else { return false }
        let number: Int32 = switch signal {
        case .terminate: SIGTERM
        case .kill: SIGKILL
        case .probe: 0
        }
        return Glibc.kill(-group, number) == 0
    }
}
