#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The one file that calls the C file API: locks, durable atomic replacement, reads and stats.
enum FileSystem {
    /// A failed system call, with the errno text.
    struct Failure: Error {
        let operation: String
        let code: Int32
        var reason: String { "\(operation) failed: \(String(cString: strerror(code)))" }
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

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws(Failure) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(operation: "open", code: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(operation: "fstat", code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(operation: "open (not a regular file)", code: EISDIR) }
        var data = Data(count: Int(info.st_size))
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

    /// An exclusive `flock` on `path` (created if needed), polled until `timeout` seconds pass.
    static func lock(_ path: String, timeout: Double) throws(LockError) -> FileLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed(Failure(operation: "open lock file", code: errno)) }
        let deadline = Date().addingTimeInterval(timeout)
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
        return FileLock(descriptor: fd)
    }

    /// Why a lock was not taken.
    enum LockError: Error {
        case timedOut
        case failed(Failure)
    }

    /// Replaces `path` with `data` so a crash leaves the old or the new file, never a mix.
    ///
    /// Writes a temp file in the same directory with the old file's mode and owner (or `newMode`),
    /// `fsync`s it, `rename`s it over `path`, then `fsync`s the directory.
    static func replaceAtomically(_ path: String, with data: Data, newMode: mode_t) throws(Failure) {
        let directory = directory(of: path)
        let existing = ownership(path)
        let mode = existing?.mode ?? newMode
        let name = (path as NSString).lastPathComponent
        let temp = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "create temp file", code: errno) }
        var failure: Failure?
        if fchmod(fd, mode) != 0 { failure = Failure(operation: "fchmod", code: errno) }
        if failure == nil, let existing, existing.owner != geteuid() || existing.group != getegid(),
           fchown(fd, existing.owner, existing.group) != 0, errno != EPERM {
            failure = Failure(operation: "fchown", code: errno)
        }
        if failure == nil { failure = writeAll(fd, data) }
        if failure == nil, fsync(fd) != 0 { failure = Failure(operation: "fsync", code: errno) }
        if close(fd) != 0, failure == nil { failure = Failure(operation: "close", code: errno) }
        if failure == nil, rename(temp, path) != 0 { failure = Failure(operation: "rename", code: errno) }
        if let failure {
            unlink(temp)
            throw failure
        }
        syncDirectory(directory)
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> Failure? {
        data.withUnsafeBytes { buffer -> Failure? in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return Failure(operation: "write", code: errno)
                }
                offset += written
            }
            return nil
        }
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
