import Foundation

/// JSON text that can be inlined in an HTML `<script>` element as it is.
///
/// A string holding `</script>` would end the element early; JSON allows `\/` for `/`, so every
/// `</` (which can only occur inside a string) is written `<\/`. Readers get the same value back.
package enum HTMLSafeJSON {
    /// `json` with each `</` written `<\/`.
    package static func escapingClosingTags(_ json: Data) -> Data {
        json.withUnsafeBytes { raw -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            // Found a pair at a time, the rest copied in runs (most JSON holds no `</` at all).
            var out: Data?, copied = 0, index = 0
            while let found = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
                index = found + 1
                guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { continue }
                if out == nil { out = Data(capacity: bytes.count + 16) }
                out?.append(UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                out?.append(UInt8(ascii: "\\"))
                copied = index
            }
            guard var out else { return json }
            out.append(UnsafeBufferPointer(rebasing: bytes[copied...]))
            return out
        }
    }
}
