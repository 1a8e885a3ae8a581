import Foundation
import Testing
@testable import HTTPServer

/// The pure parser: requests, framing, keep-alive and every refusal, without sockets.
@Suite struct HTTPRequestParserTests {
    let limits = HTTPLimits()

    func parse(_ text: String, limits: HTTPLimits = .init()) -> HTTPParseResult {
        HTTPRequestParser.parse(Array(text.utf8), limits: limits)
    }

    func request(_ text: String) -> HTTPParsedRequest? {
        if case .request(let parsed) = parse(text) { return parsed }
        return nil
    }

    @Test func readsRequestLineHeadersAndBody() throws {
        let text = "POST /ofrep/v1/evaluate/flags?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-Api-Key:  t0k \r\n\r\nhello"
        let parsed = try #require(request(text + "GET"))
        #expect(parsed.request.method == "POST")
        #expect(parsed.request.target == "/ofrep/v1/evaluate/flags?x=1")
        #expect(parsed.request.path == "/ofrep/v1/evaluate/flags")
        #expect(parsed.request.header("x-api-key") == "t0k")
        #expect(parsed.request.body == Data("hello".utf8))
        #expect(parsed.keepAlive)
        #expect(parsed.consumed == text.utf8.count)
    }

    @Test func incompleteUntilTheBodyIsWhole() {
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\n") == .incomplete(headComplete: false, expectsContinue: false))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab") == .incomplete(headComplete: true, expectsContinue: false))
        #expect(parse("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n") == .incomplete(headComplete: true, expectsContinue: true))
    }

    @Test func keepAliveFollowsVersionAndConnectionHeader() {
        #expect(request("GET / HTTP/1.1\r\n\r\n")?.keepAlive == true)
        #expect(request("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")?.keepAlive == false)
        #expect(request("GET / HTTP/1.1\r\nConnection: Upgrade, CLOSE\r\n\r\n")?.keepAlive == false)
        #expect(request("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")?.keepAlive == true)
        #expect(request("GET / HTTP/1.0\r\n\r\n")?.isHTTP10 == true)
    }

    @Test func joinsChunkedBodiesAndIgnoresExtensionsAndTrailers() throws {
        let text = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\nA \r\n, chunked!\r\n0\r\nX-Trailer: y\r\n\r\nGET"
        let parsed = try #require(request(text))
        #expect(parsed.request.body == Data("hello, chunked!".utf8))
        #expect(parsed.consumed == text.utf8.count - 3)
    }

    @Test func acceptsBareLineFeedsAndLeadingBlankLines() throws {
        let parsed = try #require(request("\r\n\nGET /x HTTP/1.1\nHost: a\n\n"))
        #expect(parsed.request.target == "/x")
        #expect(parsed.request.header("host") == "a")
    }

    @Test func pipelinedRequestsFollowOneAnother() throws {
        let text = "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 1\r\n\r\nzGET /c HTTP/1.1\r\n\r\n"
        var parser = HTTPRequestParser(limits: limits)
        var bytes = Array(text.utf8)
        var targets: [String] = []
        while case .request(let parsed) = bytes.withUnsafeBufferPointer({ parser.next($0) }) {
            targets.append(parsed.request.target)
            bytes.removeFirst(parsed.consumed)
        }
        #expect(targets == ["/a", "/b", "/c"])
        #expect(bytes.isEmpty)
    }

    @Test func refusesMalformedRequestLines() {
        for line in ["GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
                     "GET /a b HTTP/1.1\r\n\r\n", "GET / HTTP/1\r\n\r\n", "GET / http/1.1\r\n\r\n", "\u{1}\u{2}garbage\r\n\r\n",
                     "GET /\u{e9} HTTP/1.1\r\n\r\n", " GET / HTTP/1.1\r\n\r\n"] {
            #expect(parse(line) == .failure(.malformedRequestLine), "\(line.debugDescription)")
        }
    }

    @Test func refusesVersionsOtherThanOneX() {
        #expect(parse("GET / HTTP/2.0\r\n\r\n") == .failure(.unsupportedVersion))
        #expect(parse("GET / HTTP/0.9\r\n\r\n") == .failure(.unsupportedVersion))
        #expect(request("GET / HTTP/1.2\r\n\r\n")?.keepAlive == true)
    }

    @Test func refusesMalformedHeaders() {
        for head in ["GET / HTTP/1.1\r\nNoColon\r\n\r\n", "GET / HTTP/1.1\r\n: empty name\r\n\r\n",
                     "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",
                     "GET / HTTP/1.1\r\nA: b\u{0}c\r\n\r\n"] {
            #expect(parse(head) == .failure(.malformedHeader), "\(head.debugDescription)")
        }
    }

    @Test func refusesBadFraming() {
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == .failure(.badContentLength))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 1, 1\r\n\r\n") == .failure(.badContentLength))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == .failure(.badContentLength))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n") == .failure(.badContentLength))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n") == .failure(.ambiguousLength))
        #expect(parse("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == .failure(.unsupportedTransferEncoding))
        #expect(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") == .failure(.badChunk))
        #expect(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX") == .failure(.badChunk))
        #expect(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 2000)) == .failure(.badChunk))
    }

    @Test func headOverTheLimitIs431AsSoonAsItIsKnown() {
        let small = HTTPLimits(maxHeadBytes: 64)
        #expect(parse("GET / HTTP/1.1\r\nA: " + String(repeating: "a", count: 100), limits: small) == .failure(.headTooLarge))
        #expect(parse("GET / HTTP/1.1\r\nA: " + String(repeating: "a", count: 30) + "\r\n\r\n", limits: small) != .failure(.headTooLarge))
        let big = "GET / HTTP/1.1\r\n" + String(repeating: "X-Filler: 0123456789012345678901234567890123456789\r\n", count: 400) + "\r\n"
        #expect(parse(big) == .failure(.headTooLarge))
        let trailers = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + String(repeating: "T: 0123456789\r\n", count: 10)
        #expect(parse(trailers, limits: small) == .failure(.headTooLarge))
    }

    @Test func bodyOverTheLimitIs413BeforeItArrives() {
        let small = HTTPLimits(maxBodyBytes: 10)
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", limits: small) == .failure(.bodyTooLarge))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n", limits: small) == .incomplete(headComplete: true, expectsContinue: false))
        #expect(parse("POST / HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n") == .failure(.bodyTooLarge))
        #expect(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n", limits: small) == .failure(.bodyTooLarge))
    }

    @Test func errorAnswersAreJSONWithDetails() throws {
        let errors: [HTTPParseError] = [.headTooLarge, .bodyTooLarge, .malformedRequestLine, .malformedHeader, .unsupportedVersion,
                                        .badContentLength, .ambiguousLength, .unsupportedTransferEncoding, .badChunk]
        let statuses = errors.map { HTTPErrorAnswer.response(for: $0, limits: limits).status }
        #expect(statuses == [431, 413, 400, 400, 505, 400, 400, 501, 400])
        for response in errors.map({ HTTPErrorAnswer.response(for: $0, limits: limits) }) + [HTTPErrorAnswer.timeout(limits), HTTPErrorAnswer.overloaded(limits)] {
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
            #expect(object["errorCode"]?.isEmpty == false)
            #expect(object["errorDetails"]?.isEmpty == false)
        }
    }
}

/// The response writer and the `Date` header.
@Suite struct HTTPResponseWriterTests {
    func written(_ response: HTTPResponse, keepAlive: Bool = true, headOnly: Bool = false) -> String {
        var output: [UInt8] = []
        HTTPResponseWriter.append(response, to: &output, date: "Sat, 28 Nov 2026 02:00:00 GMT", keepAlive: keepAlive, headOnly: headOnly)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func addsLengthDateAndConnectionAndDropsTheHandlersOwn() {
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("ETag", "\"1\""), HTTPHeader("content-length", "99"), HTTPHeader("X-Bad", "a\r\nInjected: 1")], body: Data("{}".utf8))
        #expect(written(response) == "HTTP/1.1 200 OK\r\nETag: \"1\"\r\nX-Bad: a  Injected: 1\r\nContent-Length: 2\r\nDate: Sat, 28 Nov 2026 02:00:00 GMT\r\nConnection: keep-alive\r\n\r\n{}")
        #expect(written(HTTPResponse(status: 404), keepAlive: false).contains("Content-Length: 0\r\nDate: Sat, 28 Nov 2026 02:00:00 GMT\r\nConnection: close\r\n\r\n"))
    }

    @Test func notModifiedAndHeadCarryNoBody() {
        #expect(written(HTTPResponse(status: 304, headers: [HTTPHeader("ETag", "\"1\"")], body: Data("x".utf8))) == "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\nDate: Sat, 28 Nov 2026 02:00:00 GMT\r\nConnection: keep-alive\r\n\r\n")
        #expect(written(HTTPResponse(status: 200, body: Data("abc".utf8)), headOnly: true).hasSuffix("Content-Length: 3\r\nDate: Sat, 28 Nov 2026 02:00:00 GMT\r\nConnection: keep-alive\r\n\r\n"))
    }

    @Test func dateIsIMFFixdate() {
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 1_795_833_825) == "Sat, 28 Nov 2026 02:43:45 GMT")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &generator)
            #expect(HTTPDate.format(secondsSince1970: seconds) == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
        }
    }
}
