#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
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
        let data = try encoder.encode(value)
        return collector.texts.isEmpty ? data : collector.replacingPlaceholders(in: data)
    }

    /// The placeholder `value` is encoded as while `encode` runs; nil otherwise.
    static func placeholder(for value: JSONValue, in encoder: any Encoder) -> String? {
        guard let key, let collector = encoder.userInfo[key] as? Collector else { return nil }
        collector.texts.append(value.compactText)
        return collector.placeholder(collector.texts.count - 1)
    }

    /// The payload texts met during one `encode`, each behind a placeholder no store text holds.
    /// `@unchecked Sendable`: one `encode` call makes it and uses it on its own thread (the encoder's `userInfo` asks for `Sendable`).
    final class Collector: @unchecked Sendable {
        var texts: [String] = []
        let nonce = UUID().uuidString

        func placeholder(_ index: Int) -> String { "\u{E000}payload-\(nonce)-\(index)\u{E000}" }

        /// `data` with each quoted placeholder replaced by its text, in one pass over the bytes
        /// (searching the whole output once per payload made an export of thousands of them quadratic).
        func replacingPlaceholders(in data: Data) -> Data {
            let prefix = Array(("\"\u{E000}payload-" + nonce + "-").utf8), suffix = Array("\u{E000}\"".utf8)
            var out = Data()
            out.reserveCapacity(data.count + texts.reduce(0) { $0 + $1.utf8.count })
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                guard let base = bytes.baseAddress else { return }
                var copied = 0, position = 0
                // The placeholder's private-use character (its UTF-8 lead byte 0xEE) is rare in JSON: look for it.
                while position + 1 < bytes.count, let found = memchr(base + position + 1, Int32(prefix[1]), bytes.count - position - 1) {
                    let start = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - 1
                    position = start + 1
                    guard start + prefix.count <= bytes.count, memcmp(base + start, prefix, prefix.count) == 0 else { continue }
                    var end = start + prefix.count, index = 0
                    while end < bytes.count, end - start - prefix.count < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                        index = index * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                        end += 1
                    }
                    guard end > start + prefix.count, index < texts.count, end + suffix.count <= bytes.count,
                          memcmp(base + end, suffix, suffix.count) == 0 else { continue }
                    out.append(UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                    out.append(contentsOf: texts[index].utf8)
                    copied = end + suffix.count
                    position = copied - 1
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[copied...]))
            }
            return out
        }
    }
}
