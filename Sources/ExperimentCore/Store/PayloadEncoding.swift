import Foundation

/// `JSONEncoder` output whose payloads keep their text: `1.0`, `1.50e3` and `0.10` as written.
///
/// `JSONEncoder` writes a number through `Decimal` or `Double`, so a payload's `1.0` would be `1`.
/// While `encode` runs, each `JSONValue` stands in the encoder's output as a unique placeholder
/// string, which is then replaced by the value's compact text.
package enum PayloadEncoding {
    static let key = CodingUserInfoKey(rawValue: "abconsole.payloadTexts")

    /// `value` encoded by `encoder` with every payload as its own compact text.
    package static func encode(_ value: some Encodable, with encoder: JSONEncoder) throws -> Data {
        guard let key else { return try encoder.encode(value) }
        let collector = Collector()
        encoder.userInfo[key] = collector
        defer { encoder.userInfo[key] = nil }
        var data = try encoder.encode(value)
        for (index, text) in collector.texts.enumerated().reversed() {
            guard let range = data.range(of: Data(("\"" + collector.placeholder(index) + "\"").utf8)) else { continue }
            data.replaceSubrange(range, with: Data(text.utf8))
        }
        return data
    }

    /// The placeholder `value` is encoded as while `encode` runs; nil otherwise.
    static func placeholder(for value: JSONValue, in encoder: any Encoder) -> String? {
        guard let key, let collector = encoder.userInfo[key] as? Collector else { return nil }
        collector.texts.append(value.compactText)
        return collector.placeholder(collector.texts.count - 1)
    }

    /// The payload texts met during one `encode`, each behind a placeholder no store text holds.
    final class Collector: @unchecked Sendable {
        var texts: [String] = []
        let nonce = UUID().uuidString

        func placeholder(_ index: Int) -> String { "\u{E000}payload-\(nonce)-\(index)\u{E000}" }
    }
}
