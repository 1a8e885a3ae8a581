import Foundation

/// The HTTP/1.1 server's entry point.
///
/// Requests are answered on the server's event-loop threads (one a core, at most two), the
/// handler called inline: a handler must answer quickly and never wait on I/O or a lock held
/// for long, or every connection of its loop waits with it.
package enum HTTPServe {
    /// Binds (`SO_REUSEADDR`), calls `onReady` with the bound port, and serves until `SIGTERM` or
    /// `SIGINT`; then it stops accepting, finishes the requests in progress and returns.
    /// `SIGHUP` calls `onHangup` on the calling thread (never inside the signal handler).
    /// Throws `HTTPServerError` when the address cannot be bound.
    package static func run(
        _ configuration: HTTPServerConfiguration,
        handler: some HTTPHandler,
        onReady: @Sendable (_ boundPort: Int) -> Void,
        onHangup: @Sendable () -> Void
    ) throws {
        try SocketLoop.serve(configuration, handler: handler, control: HTTPServerControl(), handleSignals: true,
                             onReady: onReady, onHangup: onHangup)
    }

    /// `run` without signal handlers, stopped through `control` instead: what tests use.
    static func run(
        _ configuration: HTTPServerConfiguration,
        handler: some HTTPHandler,
        control: HTTPServerControl,
        onReady: @Sendable (_ boundPort: Int) -> Void
    ) throws {
        try SocketLoop.serve(configuration, handler: handler, control: control, handleSignals: false,
                             onReady: onReady, onHangup: {})
    }
}

/// Why the server could not start, in one sentence a person can act on.
package enum HTTPServerError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// Another process listens on the address already.
    case addressInUse(address: String)
    /// The port needs privileges this process does not have.
    case permissionDenied(address: String)
    /// The host is no address of this machine.
    case addressNotAvailable(address: String)
    /// The host name does not resolve.
    case unknownHost(host: String, reason: String)
    /// The port is outside 0…65535.
    case invalidPort(Int)
    /// Any other failure of the system's sockets.
    case socketFailure(operation: String, reason: String)

    package var description: String {
        switch self {
        case .addressInUse(let address):
            return "\(address) is already in use by another process; stop it or listen on another port."
        case .permissionDenied(let address):
            return "listening on \(address) is not permitted (ports below 1024 need privileges); choose a port of 1024 or above."
        case .addressNotAvailable(let address):
            return "\(address) is not an address of this machine; listen on one of its addresses, 127.0.0.1 or 0.0.0.0."
        case .unknownHost(let host, let reason):
            return "the host \(host) does not resolve (\(reason)); give an address such as 127.0.0.1."
        case .invalidPort(let port):
            return "the port \(port) is outside 0…65535."
        case .socketFailure(let operation, let reason):
            return "the server could not \(operation): \(reason)."
        }
    }

    package var errorDescription: String? { description }
}

/// Stops a server started with `HTTPServe.run(_:handler:control:onReady:)`, as `SIGTERM` would.
/// Reason for `@unchecked Sendable`: every field is reached only under `lock`.
final class HTTPServerControl: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var wake: (@Sendable () -> Void)?

    init() {}

    /// Asks the server to stop: no new connections, the requests in progress finished.
    func stop() {
        lock.lock()
        stopped = true
        let wake = self.wake
        lock.unlock()
        wake?()
    }

    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// The server has returned: a later `stop` wakes nothing.
    func detach() {
        lock.lock()
        wake = nil
        lock.unlock()
    }

    /// The server's way to be woken; called at once when `stop` came first.
    func attach(_ wake: @escaping @Sendable () -> Void) {
        lock.lock()
        self.wake = wake
        let stopped = self.stopped
        lock.unlock()
        if stopped { wake() }
    }
}

/// The open connections of all loops against `HTTPLimits.maxConnections`.
/// Reason for `@unchecked Sendable`: `open` is reached only under `lock`.
final class ConnectionBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place for a new connection, or says there is none.
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard open < limit else { return false }
        open += 1
        return true
    }

    /// Connections open now.
    var openCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return open
    }

    /// A connection closed.
    func release() {
        lock.lock()
        open -= 1
        lock.unlock()
    }
}
