#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Glibc)
/// The one file of ExperimentClient that calls the C socket API: the TCP connection of its own
/// HTTP transport (Linux, `http://` URLs), non-blocking, every wait a `poll` bounded by the
/// exchange's deadline and cut into slices of at most 100 ms to notice a cancellation.
///
/// Name resolution (`getaddrinfo`) blocks and is not bounded by the deadline; a numeric host
/// (`127.0.0.1`, `::1`) resolves at once.
struct PlainHTTPSocket {
    /// Why the connection could not be made or used.
    enum Failure: Error {
        case timedOut
        case cancelled
        /// The host name did not resolve (the resolver's words).
        case unresolved(String)
        /// No address of the host took the connection (the system's words for the last refusal).
        case unreachable(String)
        /// Sending or receiving failed (the system's words).
        case broken(String)
    }

    /// How long a single `poll` may block before the cancellation flag is looked at again.
    static let sliceMilliseconds = 100

    let descriptor: Int32

    /// Connects to `host:port`, trying each address the resolver gives in turn.
    static func connect(host: String, port: Int, control: ExchangeControl) throws(Failure) -> PlainHTTPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0 else { throw .unresolved("\(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(found) }
        var lastError = "\(host) has no address"
        var entry = found
        while let info = entry?.pointee {
            entry = info.ai_next
            let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let descriptor = socket(info.ai_family, flags, 0)
            guard descriptor >= 0 else {
                lastError = text(ofErrno: errno)
                continue
            }
            let socket = PlainHTTPSocket(descriptor: descriptor)
            if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 { return socket }
            var code = errno
            if code == EINPROGRESS {
                do {
                    try socket.wait(for: Int16(POLLOUT), control: control)
                } catch {
                    socket.close()
                    throw error
                }
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { code = errno }
                if code == 0 { return socket }
            }
            lastError = text(ofErrno: code)
            socket.close()
        }
        throw .unreachable(lastError)
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8], control: ExchangeControl) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), control: control)
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                throw .broken(Self.text(ofErrno: code))
            }
            sent += count
        }
    }

    /// Receives what has come into `buffer`, waiting for some; 0 when the peer closed.
    func receive(into buffer: UnsafeMutableRawBufferPointer, control: ExchangeControl) throws(Failure) -> Int {
        while true {
            try wait(for: Int16(POLLIN), control: control)
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            let code = errno
            if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
            throw .broken(Self.text(ofErrno: code))
        }
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Blocks in `poll` until the socket is ready for `events` (or has an error or hang-up to
    /// report), the deadline passes, or the exchange is cancelled.
    private func wait(for events: Int16, control: ExchangeControl) throws(Failure) {
        while true {
            if control.isCancelled { throw .cancelled }
            let left = control.millisecondsLeft
            guard left > 0 else { throw .timedOut }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left, Self.sliceMilliseconds)))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .broken(Self.text(ofErrno: errno)) }
        }
    }

    /// The system's words for `code`.
    private static func text(ofErrno code: Int32) -> String { String(cString: strerror(code)) }
}
#endif
