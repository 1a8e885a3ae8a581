import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The HTTP server's one libc boundary: sockets, poll, signals, clocks and threads' wake-ups.
// Every limit and timeout is enforced here (through `HTTPConnection`'s clocks) and nowhere else.

/// The write end of the pipe the signal handler writes the signal's number to (set while a server
/// with signal handling runs; a process serves once at a time).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: writes the signal's number to the pipe, nothing else (async-signal-safe).
private func forwardSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

enum SocketLoop {
    /// Event loops: one a core, at most two (the handler runs inline on them).
    static var loopCount: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }

    static func serve<Handler: HTTPHandler>(
        _ configuration: HTTPServerConfiguration,
        handler: Handler,
        control: HTTPServerControl,
        handleSignals: Bool,
        onReady: @Sendable (Int) -> Void,
        onHangup: @Sendable () -> Void
    ) throws {
        raiseOpenFileLimit(to: configuration.limits.maxConnections + 256)
        let listener = try listen(host: configuration.host, port: configuration.port)
        defer { close(listener) }
        let wake = try Pipe.make()
        defer { wake.close() }
        var previous: [Int32: sigaction] = [:]
        if handleSignals {
            signalPipeWriteEnd = wake.writeEnd
            for number in [SIGTERM, SIGINT, SIGHUP] {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = forwardSignal
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                var old = sigaction()
                sigaction(number, &action, &old)
                previous[number] = old
            }
        }
        defer {
            for (number, old) in previous {
                var old = old
                sigaction(number, &old, nil)
            }
            if handleSignals { signalPipeWriteEnd = -1 }
        }
        let wakeEnd = wake.writeEnd
        control.attach { Pipe.poke(wakeEnd, byte: 0) }
        // Detached before the pipe closes, so a late stop writes to no reused descriptor.
        defer { control.detach() }
        let budget = ConnectionBudget(limit: configuration.limits.maxConnections)
        var loops: [EventLoop<Handler>] = []
        for _ in 0..<loopCount {
            loops.append(try EventLoop(listener: listener, loopCount: loopCount, handler: handler, limits: configuration.limits, budget: budget))
        }
        let threads = ThreadGroup()
        for loop in loops { threads.start { loop.run() } }
        onReady(boundPort(listener))
        waitForStop(wake: wake, control: control, onHangup: onHangup)
        for loop in loops { loop.requestStop() }
        threads.wait()
    }

    /// Blocks until `SIGTERM`, `SIGINT` or the control's stop; `SIGHUP` calls `onHangup` meanwhile.
    private static func waitForStop(wake: Pipe, control: HTTPServerControl, onHangup: @Sendable () -> Void) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while !control.isStopped {
            var entry = pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, -1) < 0 { continue }
            let count = read(wake.readEnd, &bytes, bytes.count)
            guard count > 0 else { continue }
            for byte in bytes[..<count] {
                if Int32(byte) == SIGHUP {
                    onHangup()
                } else {
                    return
                }
            }
        }
    }

    /// A listening, non-blocking socket on `host:port`.
    static func listen(host: String, port: Int) throws -> Int32 {
        guard (0...65_535).contains(port) else { throw HTTPServerError.invalidPort(port) }
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &found)
        guard status == 0, let info = found else {
            throw HTTPServerError.unknownHost(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError.socketFailure(operation: "open a socket", reason: describe(errno)) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
            let code = errno
            close(fd)
            switch code {
            case EADDRINUSE: throw HTTPServerError.addressInUse(address: address)
            case EACCES, EPERM: throw HTTPServerError.permissionDenied(address: address)
            case EADDRNOTAVAIL: throw HTTPServerError.addressNotAvailable(address: address)
            default: throw HTTPServerError.socketFailure(operation: "bind \(address)", reason: describe(code))
            }
        }
        guard Glibc.listen(fd, SOMAXCONN) == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError.socketFailure(operation: "listen on \(address)", reason: describe(code))
        }
        setNonBlocking(fd)
        return fd
    }

    /// The port a listening socket is bound to (the system's choice for port 0).
    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        // sin_port and sin6_port sit at the same place, in network order.
        return withUnsafeBytes(of: &storage) { Int($0[2]) << 8 | Int($0[3]) }
    }

    /// The text of an address the system gave, e.g. `127.0.0.1` or `::1` (IPv4-mapped IPv6 as IPv4).
    static func describe(peer storage: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        withUnsafeMutableBytes(of: &storage) { raw in
            let base = raw.baseAddress!
            if family == AF_INET {
                _ = inet_ntop(AF_INET, base + MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr)!, &text, socklen_t(text.count))
            } else if family == AF_INET6 {
                _ = inet_ntop(AF_INET6, base + MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr)!, &text, socklen_t(text.count))
            }
        }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return address.hasPrefix("::ffff:") && address.contains(".") ? String(address.dropFirst(7)) : address
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Lifts the soft limit of open files towards `wanted` (up to the hard limit), so the
    /// connection limit, not the file limit, is what a flood meets.
    private static func raiseOpenFileLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Seconds on the monotonic clock.
    static func monotonicNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Whole seconds since 1970 on the wall clock, for the `Date` header.
    static func wallSeconds() -> Int { Int(time(nil)) }
}

/// A non-blocking pipe used to wake a thread blocked in `poll`.
struct Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    static func make() throws -> Pipe {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw HTTPServerError.socketFailure(operation: "create a pipe", reason: SocketLoop.describe(errno))
        }
        SocketLoop.setNonBlocking(ends[0])
        SocketLoop.setNonBlocking(ends[1])
        return Pipe(readEnd: ends[0], writeEnd: ends[1])
    }

    static func poke(_ fd: Int32, byte: UInt8) {
        var byte = byte
        _ = write(fd, &byte, 1)
    }

    /// Reads whatever is waiting, to clear the wake-up.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}

/// Threads started together and awaited together.
/// Reason for `@unchecked Sendable`: `running` is reached only under the condition's lock.
final class ThreadGroup: @unchecked Sendable {
    private let condition = NSCondition()
    private var running = 0

    func start(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        running += 1
        condition.unlock()
        let thread = Thread { [self] in
            body()
            condition.lock()
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    func wait() {
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}

/// One accepted socket and its connection state.
private final class Slot {
    let fd: Int32
    let connection: HTTPConnection
    /// Answered and half-closed: reading and discarding until the peer closes or `drainUntil`.
    var draining = false
    var drainUntil = 0.0
    /// The peer closed its side.
    var peerClosed = false
    var closed = false

    init(fd: Int32, connection: HTTPConnection) {
        self.fd = fd
        self.connection = connection
    }
}

/// One event-loop thread: accepts from the shared listener and serves its own connections with `poll`.
/// Reason for `@unchecked Sendable`: everything but `stopRequested` (under `lock`) and the wake
/// pipe's write end is touched only by the loop's own thread inside `run`.
private final class EventLoop<Handler: HTTPHandler>: @unchecked Sendable {
    private static var readSize: Int { 64 * 1024 }
    /// How long a half-closed connection is drained before it is closed (so the peer reads the answer, not a reset).
    private static var lingerSeconds: Double { 2 }

    private let listener: Int32
    private let loopCount: Int
    private let handler: Handler
    private let limits: HTTPLimits
    private let budget: ConnectionBudget
    private let wake: Pipe
    private let lock = NSLock()
    private var stopRequested = false

    private var slots: [Slot] = []
    private var stopping = false
    private var acceptPausedUntil = 0.0
    private var now = 0.0
    private var nextSweep = 0.0
    private var dateSecond = -1
    private var date = ""
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(listener: Int32, loopCount: Int, handler: Handler, limits: HTTPLimits, budget: ConnectionBudget) throws {
        self.listener = listener
        self.loopCount = loopCount
        self.handler = handler
        self.limits = limits
        self.budget = budget
        self.wake = try Pipe.make()
    }

    deinit {
        scratch.deallocate()
        wake.close()
    }

    /// Seconds between sweeps of the clocks: a tenth of the shortest timeout, within 10…250 ms.
    private var sweepInterval: Double {
        min(0.25, max(0.01, min(limits.requestDeadline, limits.idleTimeout) / 10))
    }

    func requestStop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
        Pipe.poke(wake.writeEnd, byte: 1)
    }

    func run() {
        var entries: [pollfd] = []
        now = SocketLoop.monotonicNow()
        refreshDate()
        while true {
            entries.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0))
            // A loop holding more than its share of the connections leaves the next ones to the others.
            let accepting = !stopping && now >= acceptPausedUntil && slots.count <= budget.openCount / loopCount + 1
            entries.append(pollfd(fd: accepting ? listener : -1, events: Int16(POLLIN), revents: 0))
            for slot in slots {
                let connection = slot.connection
                let events: Int32 = slot.draining ? POLLIN : connection.hasOutput ? POLLOUT : connection.wantsInput ? POLLIN : 0
                entries.append(pollfd(fd: slot.fd, events: Int16(events), revents: 0))
            }
            let timeout = slots.isEmpty && accepting ? -1 : Int32((sweepInterval * 1000).rounded(.up))
            let ready = poll(&entries, nfds_t(entries.count), timeout)
            now = SocketLoop.monotonicNow()
            refreshDate()
            if ready > 0 {
                if entries[0].revents != 0 {
                    wake.drain()
                    if !stopping, isStopRequested { beginStop() }
                }
                if entries[1].revents != 0, !stopping { acceptConnections() }
                for index in 2..<entries.count where entries[index].revents != 0 {
                    let slot = slots[index - 2]
                    if !slot.closed { handle(slot, events: Int32(entries[index].revents)) }
                }
            }
            if now >= nextSweep {
                sweep()
                nextSweep = now + sweepInterval
            }
            if slots.contains(where: { $0.closed }) { slots.removeAll { $0.closed } }
            if stopping, slots.isEmpty { return }
        }
    }

    private var isStopRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    private func refreshDate() {
        let second = SocketLoop.wallSeconds()
        if second != dateSecond {
            dateSecond = second
            date = HTTPDate.format(secondsSince1970: second)
        }
    }

    private func acceptConnections() {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: acceptPausedUntil = now + 0.1
                default: break
                }
                return
            }
            SocketLoop.setNonBlocking(fd)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            guard budget.take() else {
                reject(fd)
                continue
            }
            let peer = SocketLoop.describe(peer: &storage)
            slots.append(Slot(fd: fd, connection: HTTPConnection(peer: peer, now: now, limits: limits)))
        }
    }

    /// A connection past the limit: `503` and closed at once, never counted.
    private func reject(_ fd: Int32) {
        var output: [UInt8] = []
        HTTPResponseWriter.append(HTTPErrorAnswer.overloaded(limits), to: &output, date: date, keepAlive: false)
        _ = output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        close(fd)
    }

    private func handle(_ slot: Slot, events: Int32) {
        if slot.draining {
            drain(slot)
            return
        }
        if events & (POLLIN | POLLHUP | POLLERR) != 0, slot.connection.wantsInput {
            guard readAvailable(slot) else { return }
        }
        service(slot)
    }

    /// Reads what the socket holds into the connection; false when the socket failed and was closed.
    private func readAvailable(_ slot: Slot) -> Bool {
        while true {
            let count = read(slot.fd, scratch.baseAddress, scratch.count)
            if count > 0 {
                slot.connection.received(UnsafeRawBufferPointer(rebasing: scratch[..<count]), now: now)
                if count < scratch.count { return true }
            } else if count == 0 {
                slot.peerClosed = true
                return true
            } else {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return true
                default:
                    closeSlot(slot)
                    return false
                }
            }
        }
    }

    /// Answers what is complete, sends what it can, and closes or half-closes when done.
    private func service(_ slot: Slot) {
        let connection = slot.connection
        while true {
            let answered = connection.process(handler: handler, limits: limits, date: date, now: now)
            if slot.peerClosed { connection.peerClosed() }
            guard flush(slot) else { return }
            if connection.hasOutput { return }
            if connection.closeAfterOutput {
                finish(slot)
                return
            }
            if connection.isIdleForStop {
                closeSlot(slot)
                return
            }
            if !answered { return }
        }
    }

    /// Sends pending output until done or the socket is full; false when the socket failed and was closed.
    private func flush(_ slot: Slot) -> Bool {
        let connection = slot.connection
        while connection.hasOutput {
            let count = connection.withPendingOutput { send(slot.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                connection.wrote(count, now: now)
            } else if count < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return true
                default:
                    closeSlot(slot)
                    return false
                }
            }
        }
        return true
    }

    /// All answered and the connection is not kept: half-close, then drain so the peer reads the answer.
    private func finish(_ slot: Slot) {
        if slot.peerClosed {
            closeSlot(slot)
            return
        }
        shutdown(slot.fd, Int32(SHUT_WR))
        slot.draining = true
        slot.drainUntil = now + min(Self.lingerSeconds, limits.requestDeadline)
    }

    private func drain(_ slot: Slot) {
        while true {
            let count = read(slot.fd, scratch.baseAddress, scratch.count)
            if count > 0 { continue }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            closeSlot(slot)
            return
        }
    }

    /// The clocks: deadlines answered `408`, idle and stuck connections closed, drains ended.
    private func sweep() {
        for slot in slots where !slot.closed {
            if slot.draining {
                if now >= slot.drainUntil { closeSlot(slot) }
                continue
            }
            switch slot.connection.expiry(now: now, limits: limits) {
            case .none: break
            case .close: closeSlot(slot)
            case .answerTimeout:
                slot.connection.answerAndClose(HTTPErrorAnswer.timeout(limits), date: date)
                service(slot)
            }
        }
    }

    /// No new connections; idle ones close now, the rest after their request.
    private func beginStop() {
        stopping = true
        for slot in slots where !slot.closed && !slot.draining {
            if slot.connection.stop() { closeSlot(slot) }
        }
    }

    private func closeSlot(_ slot: Slot) {
        guard !slot.closed else { return }
        slot.closed = true
        close(slot.fd)
        budget.release()
    }
}
