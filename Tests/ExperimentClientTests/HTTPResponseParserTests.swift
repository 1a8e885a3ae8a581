@testable import ExperimentClient
import ExperimentTestSupport
import Foundation
import Testing

/// The client transport's answer parser on bytes alone: framing (length, chunked, until close,
/// no body), `1xx` skipped, refusals, and the same outcome whatever pieces the bytes come in.
@Suite struct HTTPResponseParserTests {
    /// What a parse came to: the head, the body's bytes and whether the answer was whole, or a failure.
    enum Parsed: Equatable {
        case answer(HTTPResponseHead?, [UInt8], complete: Bool)
        case failure(HTTPResponseFailure)
    }

    /// Feeds `bytes` cut at `cuts` (offsets), then the connection's close when `close`.
    static func parse(_ bytes: [UInt8], cuts: [Int] = [], close: Bool = false, isHead: Bool = false) -> Parsed {
        var parser = HTTPResponseParser(isHead: isHead)
        var body: [UInt8] = []
        var start = 0
        for end in (cuts.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]) where end > start || bytes.isEmpty {
            let piece = Array(bytes[start..<end])
            start = end
            do {
                let ranges = try piece.withUnsafeBytes { raw in try parser.feed(raw) }
                for range in ranges { body += piece[range] }
            } catch {
                return .failure(error as? HTTPResponseFailure ?? .badChunk)
            }
        }
        if close {
            do { try parser.finish() } catch { return .failure(error) }
        }
        return .answer(parser.head, body, complete: parser.isComplete)
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let samples: [String] = [
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"a\"\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nwiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-T: 1\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nContent-Length: 2\n\nok",
        "HTTP/1.1 304 Not Modified\r\nETag: \"a\"\r\nContent-Length: 99\r\n\r\n",
        "HTTP/1.0 200 OK\r\nX-Folded: one\r\n  two\r\n\r\nuntil the close",
        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
    ]

    @Test func readsEachFraming() throws {
        let fixed = Self.parse(Self.bytes(Self.samples[0]))
        let head = HTTPResponseHead(status: 200, version: "HTTP/1.1", headers: [("Content-Length", "5"), ("ETag", "\"a\"")])
        #expect(fixed == .answer(head, Self.bytes("hello"), complete: true))
        guard case .answer(_, let chunked, true) = Self.parse(Self.bytes(Self.samples[1])) else {
            Issue.record("chunked")
            return
        }
        #expect(chunked == Self.bytes("wikipedia in\r\n\r\nchunks."))
        guard case .answer(let interim, let ok, true) = Self.parse(Self.bytes(Self.samples[2])) else {
            Issue.record("1xx")
            return
        }
        #expect(interim?.status == 200 && ok == Self.bytes("ok"))
        guard case .answer(let notModified, let empty, true) = Self.parse(Self.bytes(Self.samples[3])) else {
            Issue.record("304")
            return
        }
        #expect(notModified?.value("etag") == "\"a\"" && empty.isEmpty)
        // No length: the body runs until the close, and only the close completes it.
        guard case .answer(let folded, let open, false) = Self.parse(Self.bytes(Self.samples[4])) else {
            Issue.record("until close")
            return
        }
        #expect(folded?.value("X-Folded") == "one two" && open == Self.bytes("until the close"))
        #expect(Self.parse(Self.bytes(Self.samples[4]), close: true) == .answer(folded, open, complete: true))
        // A HEAD request's answer has no body, whatever it declares.
        guard case .answer(_, let none, true) = Self.parse(Self.bytes(Self.samples[0]), isHead: true) else {
            Issue.record("HEAD")
            return
        }
        #expect(none.isEmpty)
    }

    @Test func refusesWhatIsNoHTTPAnswer() {
        let cases: [(String, HTTPResponseFailure)] = [
            ("<html>hello</html>\r\n", .badStatusLine),
            ("HTTP/2 200\r\n\r\n", .badStatusLine),
            ("HTTP/1.1 20 OK\r\n\r\n", .badStatusLine),
            ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", .badHeader),
            ("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", .badHeader),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", .badContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", .badContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", .badContentLength),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferCoding("gzip")),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .badChunk),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n", .badChunk),
            ("HTTP/1.1 101 Switching Protocols\r\n\r\n", .switchingProtocols),
            ("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 70_000) + "\r\n\r\n", .headTooLarge(limit: 64 << 10)),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1" + String(repeating: ";", count: 2000) + "\r\n", .badChunk),
        ]
        for (text, failure) in cases {
            #expect(Self.parse(Self.bytes(text)) == .failure(failure), "\(text.prefix(60))")
        }
        // An endless run of interim answers counts against the head's limit.
        let interims = String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 3000)
        #expect(Self.parse(Self.bytes(interims)) == .failure(.headTooLarge(limit: 64 << 10)))
        // A close before the declared end, or before a whole head.
        #expect(Self.parse(Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhalf"), close: true) == .failure(.truncated))
        #expect(Self.parse(Self.bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwi"), close: true) == .failure(.truncated))
        #expect(Self.parse(Self.bytes("HTTP/1.1 200 OK\r\nCont"), close: true) == .failure(.noAnswer))
        #expect(Self.parse([], close: true) == .failure(.noAnswer))
    }

    /// Any cut of the bytes gives what the whole gives: for the samples, for bytes after the answer,
    /// and for samples with random bytes changed (garbage): same head, body, completeness or failure.
    @Test func piecesGiveWhatTheWholeGives() {
        var random = SplitMix64(seed: 29)
        for sample in Self.samples {
            let whole = Self.bytes(sample)
            for round in 0..<200 {
                var bytes = whole
                if round % 2 == 1 {
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                }
                if round % 5 == 0 { bytes += Self.bytes("HTTP/1.1 500 Trailing\r\n\r\n") }
                let cuts = (0..<Int.random(in: 1...8, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
                for close in [false, true] {
                    let expected = Self.parse(bytes, close: close)
                    #expect(Self.parse(bytes, cuts: cuts, close: close) == expected, "\(sample.prefix(30)) \(cuts)")
                    #expect(Self.parse(bytes, cuts: Array(0...bytes.count), close: close) == expected, "\(sample.prefix(30)) byte by byte")
                }
            }
        }
        // Random bytes never crash nor yield more body than they hold.
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if case .answer(_, let body, _) = Self.parse(bytes, close: true) { #expect(body.count <= bytes.count) }
        }
    }
}
