#if os(Linux)
@testable import ExperimentClient
import ExperimentTestSupport
import Foundation
import Testing

/// The client transport's body on Linux: gzip inflated as it arrives (in any pieces, several
/// members), the cap counted on the inflated bytes (a bomb stops at the cap), refusals worded.
@Suite struct ResponseBodyTests {
    /// `data` compressed by the system's `gzip` (the real tool, not our own code).
    static func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", "-9"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return result
    }

    /// Feeds `data` to a body with `encoding` in pieces cut at `cuts`.
    static func collect(_ data: Data, encoding: [String], maxBytes: Int, cuts: [Int] = []) throws -> Data {
        var body = try ResponseBody(contentEncoding: encoding, maxBytes: maxBytes, declaredLength: nil)
        let bytes = [UInt8](data)
        var start = 0
        for end in cuts.filter({ $0 > 0 && $0 < bytes.count }).sorted() + [bytes.count] where end > start {
            try Array(bytes[start..<end]).withUnsafeBytes { raw in try body.append(raw) }
            start = end
        }
        return try body.finished()
    }

    @Test func inflatesGzipInAnyPieces() throws {
        var random = SplitMix64(seed: 11)
        let text = Data((0..<20_000).map { "line \($0) of the snapshot\n" }.joined().utf8)
        let compressed = try Self.gzip(text)
        #expect(compressed.count < text.count / 4)
        for _ in 0..<20 {
            let cuts = (0..<Int.random(in: 1...20, using: &random)).map { _ in Int.random(in: 0...compressed.count, using: &random) }
            #expect(try Self.collect(compressed, encoding: ["gzip"], maxBytes: 1 << 20, cuts: cuts) == text)
        }
        // Two gzip members one after the other are one body; identity and no header keep bytes as they are.
        #expect(try Self.collect(compressed + compressed, encoding: ["x-gzip"], maxBytes: 4 << 20) == text + text)
        #expect(try Self.collect(text, encoding: ["identity"], maxBytes: 1 << 20) == text)
        #expect(try Self.collect(text, encoding: [], maxBytes: text.count) == text)
    }

    @Test func theCapCountsInflatedBytes() throws {
        // 64 MiB of spaces, about 64 KiB compressed: stopped at a 1 MiB cap, never inflated whole.
        let bomb = try Self.gzip(Data(repeating: 0x20, count: 64 << 20))
        #expect(bomb.count < 128 << 10)
        var body = try ResponseBody(contentEncoding: ["gzip"], maxBytes: 1 << 20, declaredLength: bomb.count)
        #expect(throws: ResponseBody.Failure.tooLarge) {
            try bomb.withUnsafeBytes { raw in try body.append(raw) }
        }
        #expect(body.data.count <= 1 << 20)
        #expect(throws: ResponseBody.Failure.tooLarge) { try Self.collect(Data(count: 11), encoding: [], maxBytes: 10) }
    }

    @Test func refusesWhatItCannotRead() throws {
        let text = Data("{\"format\":\"abconsole-client\"}".utf8)
        let compressed = try Self.gzip(text)
        #expect(throws: ResponseBody.Failure.unsupportedEncoding("br")) { try Self.collect(text, encoding: ["br"], maxBytes: 1 << 20) }
        #expect(throws: ResponseBody.Failure.unsupportedEncoding("gzip, gzip")) {
            try Self.collect(compressed, encoding: ["gzip", "gzip"], maxBytes: 1 << 20)
        }
        #expect(throws: ResponseBody.Failure.truncatedEncoding) {
            try Self.collect(compressed.prefix(compressed.count - 4), encoding: ["gzip"], maxBytes: 1 << 20)
        }
        do {
            _ = try Self.collect(text, encoding: ["gzip"], maxBytes: 1 << 20)
            Issue.record("plain bytes labelled gzip were inflated")
        } catch {
            guard case .corrupt = error as? ResponseBody.Failure else {
                Issue.record("\(error)")
                return
            }
        }
    }
}
#endif
