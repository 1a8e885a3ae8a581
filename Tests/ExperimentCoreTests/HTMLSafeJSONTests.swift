import ExperimentCore
import ExperimentTestSupport
import Foundation
import Testing

/// `HTMLSafeJSON.escapingClosingTags` against the rule written out byte by byte: every `</` becomes
/// `<\/`, nothing else changes, and text without one comes back as it was.
@Suite struct HTMLSafeJSONTests {
    /// The rule, one byte at a time.
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if index > 0, bytes[index - 1] == UInt8(ascii: "<"), byte == UInt8(ascii: "/") { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return out
    }

    @Test(arguments: 1...200 as ClosedRange<UInt64>)
    func everyClosingTagIsEscapedAndNothingElse(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("<</a\"\\é".utf8)
        let bytes = (0..<Int.random(in: 0..<64, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        #expect([UInt8](HTMLSafeJSON.escapingClosingTags(Data(bytes))) == Self.reference(bytes), "seed \(seed): \(bytes)")
    }

    @Test func edgesAndSlices() {
        for text in ["", "<", "/", "</", "<</", "<//", "a</b></c>", "x<", "</script></script>"] {
            #expect([UInt8](HTMLSafeJSON.escapingClosingTags(Data(text.utf8))) == Self.reference(Array(text.utf8)), "\(text)")
        }
        // A slice of a bigger buffer (indices not from zero).
        let whole = Data("pad</x>".utf8)
        #expect(HTMLSafeJSON.escapingClosingTags(whole[3...]) == Data("<\\/x>".utf8))
    }
}
