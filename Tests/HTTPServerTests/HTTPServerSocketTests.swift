import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import HTTPServer

/// The server on a real loopback socket, driven by plain sockets and curl.
@Suite struct HTTPServerSocketTests {
    func json(_ response: TestResponse?) -> [String: String] {
        guard let body = response?.body, let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String] else { return [:] }
        return object
    }

    @Test func keepAliveAnswersSeveralRequestsOnOneConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for index in 0..<3 {
            client.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let responses = client.readResponses(1)
            #expect(responses.count == 1)
            #expect(responses.first?.status == 200)
            #expect(responses.first?.body == "GET /n/\(index) 0 ")
            #expect(responses.first?.headers["connection"] == "keep-alive")
            #expect(responses.first?.headers["date"]?.hasSuffix(" GMT") == true)
        }
        client.send("GET /last HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(client.readResponses(1).first?.headers["connection"] == "close")
        #expect(client.isClosedByPeer(within: 5))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /1 HTTP/1.1\r\n\r\nPOST /2 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /3 HTTP/1.1\r\n\r\n")
        let responses = client.readResponses(3)
        #expect(responses.map(\.body) == ["GET /1 0 ", "POST /2 3 abc", "GET /3 0 "])
    }

    @Test func chunkedBodyArrivingInPiecesIsJoined() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
        Thread.sleep(forTimeInterval: 0.05)
        client.send("lo\r\n1;x=y\r\n!\r\n0\r\n\r\n")
        #expect(client.readResponses(1).first?.body == "POST /c 6 hello!")
    }

    @Test func curlPostsChunkedAndLargeBodies() throws {
        let server = try TestServer()
        defer { server.stop() }
        let chunked = try curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "abc", "http://127.0.0.1:\(server.port)/chunked"])
        #expect(chunked.output == "POST /chunked 3 abc")
        // With `Expect: 100-continue` curl waits for the interim answer before sending the body.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("http-large-\(UUID().uuidString)")
        try Data(repeating: 120, count: 200_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let big = try curl(["-v", "-H", "Expect: 100-continue", "--expect100-timeout", "30", "--data-binary", "@" + file.path, "http://127.0.0.1:\(server.port)/big"])
        #expect(big.output.hasPrefix("POST /big 200000 xxx"))
        #expect(big.errors.contains("HTTP/1.1 100 Continue"))
    }

    @Test func malformedRequestLineIs400JSONAndClosed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GARBAGE\u{1}\r\n\r\n")
        let response = client.readResponses(1).first
        #expect(response?.status == 400)
        #expect(response?.headers["connection"] == "close")
        #expect(json(response)["errorCode"] == "BAD_REQUEST")
        #expect(json(response)["errorDetails"]?.isEmpty == false)
        #expect(client.isClosedByPeer(within: 5))
        let other = try RawClient(port: server.port)
        other.send("GET / HTTP/2.0\r\n\r\n")
        #expect(other.readResponses(1).first?.status == 505)
    }

    @Test func headersOverTheLimitAre431() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\n" + String(repeating: "X-Filler: " + String(repeating: "z", count: 100) + "\r\n", count: 200))
        let response = client.readResponses(1).first
        #expect(response?.status == 431)
        #expect(json(response)["errorCode"] == "HEADERS_TOO_LARGE")
    }

    @Test func bodyOverTheLimitIs413WhileItIsStillArriving() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST / HTTP/1.1\r\nContent-Length: 5000000\r\n\r\n")
        client.send([UInt8](repeating: 65, count: 300_000))
        let response = client.readResponses(1).first
        #expect(response?.status == 413)
        #expect(json(response)["errorCode"] == "PAYLOAD_TOO_LARGE")
    }

    @Test func requestShorterThanItsLengthGets408AfterTheDeadline() throws {
        let server = try TestServer(limits: HTTPLimits(requestDeadline: 1))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let started = Date()
        client.send("POST /slow-client HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
        let response = client.readResponses(1).first
        #expect(response?.status == 408)
        #expect(json(response)["errorCode"] == "REQUEST_TIMEOUT")
        #expect(Date().timeIntervalSince(started) >= 0.9)
        #expect(client.isClosedByPeer(within: 5))
    }

    @Test func byteByByteClientCannotHoldPastTheDeadline() throws {
        let server = try TestServer(limits: HTTPLimits(requestDeadline: 1))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let head = Array("GET / HTTP/1.1\r\nX-Slow: ".utf8)
        for byte in head + [UInt8](repeating: 97, count: 30) {
            client.send([byte])
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(client.readResponses(1).first?.status == 408)
    }

    @Test func idleKeptAliveConnectionIsClosed() throws {
        let server = try TestServer(limits: HTTPLimits(idleTimeout: 0.5))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\n\r\n")
        #expect(client.readResponses(1).first?.status == 200)
        #expect(client.isClosedByPeer(within: 5))
    }

    @Test func connectionsPastTheCapAre503AndTheCapFreesUp() throws {
        let server = try TestServer(limits: HTTPLimits(maxConnections: 4))
        defer { server.stop() }
        var idle = try (0..<4).map { _ in try RawClient(port: server.port) }
        // Each held connection answers, so all four are open on the server.
        for client in idle {
            client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(client.readResponses(1).first?.status == 200)
        }
        let extra = try RawClient(port: server.port)
        let rejected = extra.readResponses(1).first
        #expect(rejected?.status == 503)
        #expect(json(rejected)["errorCode"] == "SERVICE_UNAVAILABLE")
        idle.removeLast()
        var served = false
        for _ in 0..<50 where !served {
            let again = try RawClient(port: server.port)
            again.send("GET / HTTP/1.1\r\n\r\n")
            served = again.readResponses(1).first?.status == 200
            if !served { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(served)
    }

    @Test func halfClosedClientStillGetsItsAnswer() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /half HTTP/1.1\r\n\r\n")
        client.shutdownWrite()
        #expect(client.readResponses(1).first?.body == "GET /half 0 ")
    }

    @Test func stopFinishesTheRequestInFlightAndRefusesNewConnections() throws {
        let server = try TestServer()
        let client = try RawClient(port: server.port)
        let idle = try RawClient(port: server.port)
        client.send("GET /slow HTTP/1.1\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.1)
        let stopper = Thread { server.control.stop() }
        stopper.start()
        let response = client.readResponses(1).first
        #expect(response?.status == 200)
        #expect(response?.body == "GET /slow 0 ")
        #expect(client.isClosedByPeer(within: 5))
        #expect(idle.isClosedByPeer(within: 5))
        #expect(server.hasReturned(within: 10))
        #expect(throws: RawClient.ClientError.self) { try RawClient(port: server.port) }
    }

    @Test func stopWaitsForARequestStillArriving() throws {
        let server = try TestServer()
        let client = try RawClient(port: server.port)
        client.send("POST /late HTTP/1.1\r\nContent-Length: 4\r\n\r\nab")
        Thread.sleep(forTimeInterval: 0.1)
        server.control.stop()
        Thread.sleep(forTimeInterval: 0.1)
        client.send("cd")
        let response = client.readResponses(1).first
        #expect(response?.body == "POST /late 4 abcd")
        #expect(response?.headers["connection"] == "close")
        #expect(server.hasReturned(within: 10))
    }

    @Test func bindingAPortInUseSaysSo() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(throws: HTTPServerError.addressInUse(address: "127.0.0.1:\(server.port)")) {
            try HTTPServe.run(HTTPServerConfiguration(host: "127.0.0.1", port: server.port), handler: EchoHandler(), control: HTTPServerControl()) { _ in }
        }
        #expect(HTTPServerError.addressInUse(address: "127.0.0.1:7070").description == "127.0.0.1:7070 is already in use by another process; stop it or listen on another port.")
    }

    /// Runs curl against the server: its standard output and standard error.
    func curl(_ arguments: [String]) throws -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "--http1.1", "--max-time", "20"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}

/// The public entry point with its signal handlers: `SIGHUP` calls back, `SIGTERM` stops.
@Suite struct HTTPServeSignalTests {
    @Test func hangupCallsBackAndTerminateStops() throws {
        let ready = DispatchSemaphore(value: 0)
        let hungUp = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let port = PortCell()
        let thread = Thread {
            try? HTTPServe.run(HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: EchoHandler(),
                               onReady: { port.value = $0; ready.signal() }, onHangup: { hungUp.signal() })
            returned.signal()
        }
        thread.start()
        ready.wait()
        let client = try RawClient(port: port.value)
        client.send("GET / HTTP/1.1\r\n\r\n")
        #expect(client.readResponses(1).first?.status == 200)
        kill(getpid(), SIGHUP)
        #expect(hungUp.wait(timeout: .now() + 10) == .success)
        kill(getpid(), SIGTERM)
        #expect(returned.wait(timeout: .now() + 10) == .success)
        #expect(client.isClosedByPeer(within: 5))
    }
}

/// An `Int` shared with the server's thread.
final class PortCell: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
