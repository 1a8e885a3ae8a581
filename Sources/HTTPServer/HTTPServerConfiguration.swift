/// Where `HTTPServe.run` listens and the limits it holds every connection to.
package struct HTTPServerConfiguration: Sendable, Equatable {
    /// A host name or address to bind, e.g. `127.0.0.1`, `::1`, `0.0.0.0`.
    package var host: String
    /// The TCP port; `0` asks the system for a free one (`onReady` receives it).
    package var port: Int
    package var limits: HTTPLimits

    package init(host: String, port: Int, limits: HTTPLimits = .init()) {
        self.host = host
        self.port = port
        self.limits = limits
    }
}

/// The limits of SPEC §13's HTTP bullet: one place for every size and timeout the server enforces.
package struct HTTPLimits: Sendable, Equatable {
    /// Request line and headers together (and a chunked body's trailers), in bytes; past it `431`.
    package var maxHeadBytes: Int
    /// A request body, in bytes (a chunked body's data joined); past it `413`.
    package var maxBodyBytes: Int
    /// Seconds from a request's first byte to its last; past it `408` and the connection is closed.
    /// Also how long a response may wait for a client that does not read it.
    package var requestDeadline: Double
    /// Open connections at once; the next one is answered `503` and closed.
    package var maxConnections: Int
    /// Seconds a connection may wait without a request (a fresh one or a kept-alive one) before it is closed.
    package var idleTimeout: Double

    package init(
        maxHeadBytes: Int = 16 * 1024,
        maxBodyBytes: Int = 1024 * 1024,
        requestDeadline: Double = 10,
        maxConnections: Int = 1024,
        idleTimeout: Double = 30
    ) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.requestDeadline = requestDeadline
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
    }
}
