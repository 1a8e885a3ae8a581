import Foundation
import Testing
@testable import HTTPServer

/// Random requests, mutated requests and garbage: the parser never crashes, and bytes fed in any
/// pieces (down to one byte at a time) give exactly what the whole gives.
@Suite struct HTTPParserFuzzTests {
    /// A small deterministic generator (SplitMix64), so a failure repeats.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let limits = HTTPLimits(maxHeadBytes: 256, maxBodyBytes: 64)

    /// One request, well-formed or nearly so.
    static func request(_ random: inout Random) -> [UInt8] {
        let method = random.pick(["GET", "POST", "HEAD", "PUT", "G T", ""])
        let target = random.pick(["/", "/ofrep/v1/evaluate/flags", "/a?b=c", "", "/\u{e9}"])
        let version = random.pick(["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1", "XTTP/1.1"])
        let newline = random.pick(["\r\n", "\r\n", "\n"])
        var text = "\(method) \(target) \(version)\(newline)"
        for _ in 0..<random.below(4) {
            text += random.pick(["Host: a", "Connection: close", "Connection: keep-alive", "Expect: 100-continue", "X: " + String(repeating: "y", count: random.below(300)), "Bad", " folded"]) + newline
        }
        let body = String(repeating: "b", count: random.below(80))
        switch random.below(4) {
        case 0:
            let length = random.pick(["\(body.utf8.count)", "\(body.utf8.count)", "\(body.utf8.count + 3)", "-\(body.utf8.count)", "1 2"])
            text += "Content-Length: \(length)\(newline)\(newline)\(body)"
        case 1:
            text += "Transfer-Encoding: chunked\(newline)\(newline)"
            var rest = Substring(body)
            while !rest.isEmpty {
                let size = min(rest.count, 1 + random.below(20))
                text += String(size, radix: 16) + random.pick(["", ";ext=1"]) + "\r\n" + rest.prefix(size) + random.pick(["\r\n", "\r\n", "\n", "x"])
                rest = rest.dropFirst(size)
            }
            text += "0\r\n" + random.pick(["", "T: 1\r\n"]) + "\r\n"
        case 2:
            text += newline
        default:
            text += "Content-Length: \(body.utf8.count)\(newline)Transfer-Encoding: chunked\(newline)\(newline)\(body)"
        }
        var bytes = Array(text.utf8)
        // Now and then a mutated byte.
        if random.below(4) == 0, !bytes.isEmpty { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
        return bytes
    }

    /// The requests (and the final failure or incomplete) in `bytes`, fed to one parser in pieces ending at `cuts`.
    static func results(_ bytes: [UInt8], cuts: [Int]) -> [HTTPParseResult] {
        var parser = HTTPRequestParser(limits: limits)
        var results: [HTTPParseResult] = []
        var start = 0
        var last = HTTPParseResult.incomplete(headComplete: false, expectsContinue: false)
        for end in cuts + [bytes.count] where end >= start {
            while true {
                last = bytes[start..<end].withUnsafeBufferPointer { parser.next($0) }
                guard case .request(let parsed) = last else { break }
                results.append(last)
                start += parsed.consumed
            }
            if case .failure = last { break }
        }
        return results + [last]
    }

    @Test func piecesGiveWhatTheWholeGives() {
        var random = Random(state: 20_261_128)
        var seen: Set<String> = []
        for round in 0..<1500 {
            var stream: [UInt8] = []
            for _ in 0..<(1 + random.below(3)) { stream += Self.request(&random) }
            if round % 5 == 0 { stream = (0..<random.below(400)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
            let whole = Self.results(stream, cuts: [])
            for result in whole {
                switch result {
                case .request: seen.insert("request")
                case .failure(let error): seen.insert("\(error)")
                case .incomplete: seen.insert("incomplete")
                }
            }
            let byteByByte = Self.results(stream, cuts: Array(0..<stream.count))
            #expect(byteByByte == whole, "round \(round): \(String(decoding: stream, as: UTF8.self).debugDescription)")
            let cuts = (0..<random.below(6)).map { _ in random.below(stream.count + 1) }.sorted()
            #expect(Self.results(stream, cuts: cuts) == whole, "round \(round) cuts \(cuts)")
        }
        // The generator reaches every outcome, so the agreement above covers each.
        #expect(seen == ["request", "incomplete", "headTooLarge", "bodyTooLarge", "malformedRequestLine", "malformedHeader",
                         "unsupportedVersion", "badContentLength", "ambiguousLength", "unsupportedTransferEncoding", "badChunk"])
    }

    @Test func everySplitOfAChunkedPipelineAgrees() {
        let text = "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n3\r\nabc\r\n2;x\r\nde\r\n0\r\n\r\nGET /b HTTP/1.0\r\n\r\n"
        let bytes = Array(text.utf8)
        let whole = Self.results(bytes, cuts: [])
        #expect(whole.count == 3)
        for cut in 0...bytes.count {
            #expect(Self.results(bytes, cuts: [cut]) == whole, "cut at \(cut)")
        }
    }
}
