import Foundation
import Testing
@testable import HTTPServer

@Suite struct HTTPMessageTests {
    @Test func pathDropsTheQueryAndHeadersIgnoreCase() {
        let request = HTTPRequest(method: "GET", target: "/healthz?probe=1", headers: [HTTPHeader("If-None-Match", "\"abc\"")])
        #expect(request.path == "/healthz")
        #expect(request.header("if-none-match") == "\"abc\"")
        #expect(request.header("ETag") == nil)
    }
}
