import Foundation
import Testing
@testable import HTTPServer

/// The server on a real loopback socket, driven by plain sockets.
@Suite struct HTTPServerSocketTests {
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
    }
}
