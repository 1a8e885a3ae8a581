import Foundation
import Testing
@testable import ExperimentCore
import ExperimentTestSupport

/// `PayloadEncoding` replaces its placeholders in one pass; the bytes are those of one search per payload.
struct PayloadPlaceholderTests {
    /// The reference: each payload's placeholder searched for from the start of the output and replaced.
    static func searchingEach(_ value: some Encodable, with encoder: JSONEncoder) throws -> Data {
        let key = try #require(PayloadEncoding.key)
        let collector = PayloadEncoding.Collector()
        encoder.userInfo[key] = collector
        defer { encoder.userInfo[key] = nil }
        var data = try encoder.encode(value)
        for (index, text) in collector.texts.enumerated().reversed() {
            guard let range = data.range(of: Data(("\"" + collector.placeholder(index) + "\"").utf8)) else { continue }
            data.replaceSubrange(range, with: Data(text.utf8))
        }
        return data
    }

    /// Random payloads (escapes, non-ASCII, numbers written as `1.0`) nested under keys whose sorted order is not the encoding order.
    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func onePassEqualsOneSearchPerPayload(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var value: [String: [JSONValue]] = [:]
        for index in 0..<Int(random.next() % 200) {
            value[RandomStore.awkward.text(using: &random) + "-\(index)"] = (0..<Int(random.next() % 3)).map { _ in
                random.next() % 4 == 0 ? .number(1.0) : RandomStore.awkward.payload(using: &random)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try PayloadEncoding.encode(value, with: encoder) == (try Self.searchingEach(value, with: encoder)))
    }
}
