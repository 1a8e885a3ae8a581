#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Standard input, output and error through `read(2)` and `write(2)`: the executable's one file of
/// libc calls (besides the ncurses backend), with the few others the commands need (`isatty`,
/// `stat`, signals); `scripts/check-reach` keeps them here.
///
/// Foundation's `FileHandle` traps on a failed write or read (a closed descriptor, a full disk, a
/// non-blocking pipe with no data yet); here every failure is a value the caller decides on.
enum StandardStreams {
    /// A failed read or write: the errno and its text.
    struct Failure: Error, Equatable {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
        /// The reader of a pipe went away: end quietly, as a process killed by SIGPIPE would.
        var isClosedPipe: Bool { code == EPIPE }
    }

    /// The exit status of a process killed by SIGPIPE, used when stdout's reader is gone.
    static let closedPipeStatus: Int32 = 128 + SIGPIPE

    /// Writes all of `bytes` to `descriptor`, retrying on EINTR and waiting out EAGAIN.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if count >= 0 {
                written += count
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: wait(descriptor, for: Int16(POLLOUT))
            default: throw Failure(code: code)
            }
        }
    }

    /// Writes `text` to standard error, ignoring any failure: the exit code is the contract, not the message.
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { try? write(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
    }

    /// Everything on `descriptor` until end of file, retrying on EINTR and waiting (`poll`) on EAGAIN;
    /// more than `limit` bytes fail with EFBIG (a stream that never ends is not read forever).
    static func readAll(_ descriptor: Int32, limit: Int = .max) throws(Failure) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                guard data.count + count <= limit else { throw Failure(code: EFBIG) }
                data.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 { return data }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: wait(descriptor, for: Int16(POLLIN))
            default: throw Failure(code: code)
            }
        }
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether `path` names a device (after symbolic links); false when it cannot be looked at.
    static func isDevice(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFCHR || (info.st_mode & S_IFMT) == S_IFBLK
    }

    /// Sends each of `signals` to `handler`, a C function that must be async-signal-safe.
    static func handle(_ signals: [Int32], with handler: @escaping @convention(c) (Int32) -> Void) {
        for number in signals { _ = signal(number, handler) }
    }

    /// Unblocks `signals`: a parent may have started the process with them blocked (the mask is inherited).
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Sleeps for `microseconds`; a signal ends the sleep early.
    static func sleep(microseconds: UInt32) { usleep(microseconds) }

    /// Blocks until `descriptor` is ready for `events` (or reports an error or hang-up, which the next call meets).
    private static func wait(_ descriptor: Int32, for events: Int16) {
        var request = pollfd(fd: descriptor, events: events, revents: 0)
        while poll(&request, 1, -1) < 0, errno == EINTR {}
    }
}
