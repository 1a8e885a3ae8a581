@testable import ExperimentClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The requests the client's own transport writes, and the redirects it follows, on values alone.
@Suite struct HTTPRequestBytesTests {
    static func text(_ request: URLRequest) -> String {
        let url = request.url ?? URL(fileURLWithPath: "/")
        return String(decoding: HTTPRequestBytes.make(request, url: url, host: url.host ?? "", userAgent: "UA", acceptEncoding: "gzip"),
                      as: UTF8.self)
    }

    @Test func writesTheRequestLineHostAndOwnHeaders() throws {
        var get = URLRequest(url: try #require(URL(string: "http://cdn.example.com:8080/a%20b/client.json?v=1")))
        get.setValue("\"etag\"", forHTTPHeaderField: "If-None-Match")
        get.setValue("evil\r\nX-Injected: 1", forHTTPHeaderField: "X-Bad")
        get.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        #expect(Self.text(get) == "GET /a%20b/client.json?v=1 HTTP/1.1\r\nHost: cdn.example.com:8080\r\nIf-None-Match: \"etag\"\r\n"
            + "User-Agent: UA\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
        var post = URLRequest(url: try #require(URL(string: "http://user:p%40ss@[::1]/ofrep")))
        post.httpMethod = "POST"
        post.httpBody = Data("{}".utf8)
        let text = Self.text(post)
        #expect(text.hasPrefix("POST /ofrep HTTP/1.1\r\nHost: [::1]\r\n"), "\(text)")
        #expect(text.contains("Authorization: Basic \(Data("user:p@ss".utf8).base64EncodedString())\r\n"))
        #expect(text.hasSuffix("Content-Length: 2\r\n\r\n{}"))
    }

    #if os(Linux)
    @Test func followsRedirectsAsBrowsersDo() throws {
        let from = try #require(URL(string: "http://a.example/x"))
        var post = URLRequest(url: from)
        post.httpMethod = "POST"
        post.httpBody = Data("{}".utf8)
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        func head(_ status: Int, _ location: String) -> HTTPResponseHead {
            HTTPResponseHead(status: status, version: "HTTP/1.1", headers: [("Location", location)])
        }
        // 303 (and 301/302 after a POST) become a GET without body; 307/308 keep all.
        let seeOther = try #require(PlainHTTPClient.redirect(post, url: from, head: head(303, "/y")))
        #expect(seeOther.url?.absoluteString == "http://a.example/y" && seeOther.httpMethod == "GET" && seeOther.httpBody == nil)
        #expect(seeOther.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        let kept = try #require(PlainHTTPClient.redirect(post, url: from, head: head(307, "http://a.example/z")))
        #expect(kept.httpMethod == "POST" && kept.httpBody == Data("{}".utf8))
        // Credentials stay with their host.
        let away = try #require(PlainHTTPClient.redirect(post, url: from, head: head(308, "https://b.example/")))
        #expect(away.value(forHTTPHeaderField: "Authorization") == nil)
        // Not a redirect to follow: no Location, or 304.
        #expect(PlainHTTPClient.redirect(post, url: from, head: HTTPResponseHead(status: 302, version: "HTTP/1.1", headers: [])) == nil)
        #expect(PlainHTTPClient.redirect(post, url: from, head: head(304, "/y")) == nil)
    }
    #endif
}
