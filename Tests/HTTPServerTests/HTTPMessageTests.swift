import Foundation
import Testing
@testable import HTTPServer

@Suite struct HTTPMessageTests {
    @Test func pathDropsTheQueryAndHeadersIgnoreCase() {
        let request = HTTPRequest(method: "GET", target: "/healthz?probe=1", headers: [HTTPHeader("If-None-Match", "\"abc\"")])
        #expect(request.path == "/healthz")
        #expect(request.header("if-none-match") == "\"abc\"")
        #expect(request.header("ETag") == nil)
        #expect(request.header("IF-NONE-MATCH") == "\"abc\"")
        #expect(request.header("If-None-Matc") == nil)
        // Only letters fold: `[` and `{` differ by the case bit but are different names.
        #expect(HTTPRequest(method: "GET", target: "/", headers: [HTTPHeader("X[", "1")]).header("X{") == nil)
    }
}
