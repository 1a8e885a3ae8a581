import Foundation
import Testing
@testable import ExperimentCore
import ExperimentTestSupport

/// `ValidUTF8.string`: bytes in one piece of memory take the compiled loop (`string(buffer:)`), any
/// other collection the plain decode-and-compare; both give the same answer, to the byte, on valid
/// text, broken sequences and everything between.
struct ValidUTF8Tests {
    /// Byte strings that are valid UTF-8 or miss it narrowly: every length of sequence, cut short,
    /// overlong forms, surrogates, code points past U+10FFFF, stray continuation bytes, 0xFE/0xFF.
    static func samples() -> [[UInt8]] {
        var random = SplitMix64(seed: 0x5554_4638)
        let pieces: [[UInt8]] = [
            Array("plain ascii, subject-42".utf8), Array("é".utf8), Array("日本".utf8), Array("\u{10FFFF}".utf8), Array("🙂".utf8),
            [0x00], [0x7F], [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x99], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0x80], [0xBF], [0xFE], [0xFF], [0xEF, 0xBB, 0xBF],
        ]
        var samples: [[UInt8]] = [[]] + pieces
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) {
                if random.next() % 4 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: random.next()))
                } else {
                    bytes += pieces[Int(random.next() % UInt64(pieces.count))]
                }
            }
            samples.append(bytes)
        }
        // Long ones: the whole-file check of an import.
        samples.append(Array(repeating: Array("a1b2c3d4-0000-4000-8000-000000000000,control,partner list 7\n".utf8), count: 5_000).flatMap { $0 })
        samples.append(samples[samples.count - 1] + [0xE2, 0x82] + Array("tail".utf8))
        return samples
    }

    @Test func everyFormOfTheBytesDecidesAsThePlainPath() {
        var valid = 0
        for bytes in Self.samples() {
            let plain = ValidUTF8.decodedString(bytes)
            valid += plain == nil ? 0 : 1
            let data = Data([0x20] + bytes)
            let answers = [
                ValidUTF8.string(bytes),
                ValidUTF8.string(bytes[...]),
                ValidUTF8.string(Data(bytes)),
                ValidUTF8.string(data[1...]),
                bytes.withUnsafeBufferPointer { ValidUTF8.string($0) },
                ValidUTF8.string(bytes.lazy.map { $0 }),  // not contiguous: the plain path itself
            ]
            for answer in answers {
                #expect(answer == plain, "\(bytes)")
                #expect(answer.map { Array($0.utf8) } == plain.map { Array($0.utf8) }, "\(bytes)")
            }
            // Valid exactly when the standard library's own validation says so, and then the same text.
            #expect(plain.map { Array($0.utf8) } == String(validating: bytes, as: UTF8.self).map { Array($0.utf8) }, "\(bytes)")
        }
        #expect(valid > 100)
    }
}
