import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import HTTPServer

/// Echoes what it received as JSON-free text: `METHOD TARGET body-length body`; `/slow` waits.
struct EchoHandler: HTTPHandler {
    func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.path == "/slow" { Thread.sleep(forTimeInterval: 0.5) }
        let text = "\(request.method) \(request.target) \(request.body.count) " + String(decoding: request.body, as: UTF8.self)
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: Data(text.utf8))
    }
}

/// A real server on an ephemeral loopback port, run on its own thread and stopped through its control.
final class TestServer: @unchecked Sendable {
    let port: Int
    let control = HTTPServerControl()
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var thrown: Error?

    init(limits: HTTPLimits = .init(), handler: some HTTPHandler = EchoHandler()) throws {
        let ready = DispatchSemaphore(value: 0)
        let portBox = PortBox()
        let control = self.control
        let finished = self.finished
        let thread = Thread { [portBox] in
            do {
                try HTTPServe.run(HTTPServerConfiguration(host: "127.0.0.1", port: 0, limits: limits), handler: handler, control: control) { port in
                    portBox.set(port)
                    ready.signal()
                }
            } catch {
                portBox.fail(error)
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        if let error = portBox.error { throw error }
        port = portBox.port
    }

    /// Stops the server and waits until `run` returned; false if it did not within `seconds`.
    @discardableResult
    func stop(within seconds: Double = 10) -> Bool {
        control.stop()
        return finished.wait(timeout: .now() + seconds) == .success
    }

    /// Whether `run` has returned within `seconds` (after a stop requested elsewhere).
    func hasReturned(within seconds: Double) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }
}

private final class PortBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    private var failure: Error?
    func set(_ port: Int) { lock.lock(); value = port; lock.unlock() }
    func fail(_ error: Error) { lock.lock(); failure = error; lock.unlock() }
    var port: Int { lock.lock(); defer { lock.unlock() }; return value }
    var error: Error? { lock.lock(); defer { lock.unlock() }; return failure }
}

/// A plain blocking TCP client socket for the tests, with a receive timeout.
final class RawClient {
    let fd: Int32

    init(port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(fd)
            throw ClientError.connect(errno)
        }
        setTimeout(timeout)
    }

    deinit { close(fd) }

    enum ClientError: Error { case connect(Int32) }

    func setTimeout(_ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            offset += count
        }
    }

    /// Half-closes: no more bytes from this side.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Everything until the peer closes or the timeout passes.
    func readAll() -> String {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result += buffer[..<count]
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Reads responses until `count` whole ones (by Content-Length) have arrived or the peer closes.
    func readResponses(_ count: Int) -> [TestResponse] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var responses: [TestResponse] = []
        while responses.count < count {
            if let (response, used) = TestResponse.parse(data) {
                responses.append(response)
                data.removeFirst(used)
                continue
            }
            let received = recv(fd, &buffer, buffer.count, 0)
            if received <= 0 { break }
            data += buffer[..<received]
        }
        return responses
    }

    /// Whether the peer has closed: a read returns end of file (not a timeout) within `seconds`.
    func isClosedByPeer(within seconds: Double) -> Bool {
        setTimeout(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { continue }
            return count == 0 || errno == ECONNRESET
        }
    }
}

/// A response as the tests read it.
struct TestResponse {
    var status: Int
    var headers: [String: String]
    var body: String

    /// The first response in `bytes` and its length, when whole.
    static func parse(_ bytes: [UInt8]) -> (TestResponse, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator }) else { return nil }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headEnd + 4
        guard bytes.count >= bodyStart + length else { return nil }
        return (TestResponse(status: status, headers: headers, body: String(decoding: bytes[bodyStart..<(bodyStart + length)], as: UTF8.self)), bodyStart + length)
    }
}
