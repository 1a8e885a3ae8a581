import Foundation

/// JSON text that can be inlined in an HTML `<script>` element as it is.
///
/// A string holding `</script>` would end the element early; JSON allows `\/` for `/`, so every
/// `</` (which can only occur inside a string) is written `<\/`. Readers get the same value back.
package enum HTMLSafeJSON {
    /// `json` with each `</` written `<\/`.
    package static func escapingClosingTags(_ json: Data) -> Data {
        guard json.contains(UInt8(ascii: "<")) else { return json }
        var out = Data()
        out.reserveCapacity(json.count + 16)
        var previous: UInt8 = 0
        for byte in json {
            if previous == UInt8(ascii: "<"), byte == UInt8(ascii: "/") { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
            previous = byte
        }
        return out
    }
}
