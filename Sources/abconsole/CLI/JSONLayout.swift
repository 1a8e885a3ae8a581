/// Lays compact JSON out for people: two-space indents, `"key": value`, and `[]` / `{}` when empty.
///
/// Foundation's pretty printer writes `"key" : value` and an empty array over two lines; this
/// re-indents the encoder's compact output instead, so the bytes stay exactly what it encoded.
enum JSONLayout {
    /// `compact` (JSON without insignificant whitespace) laid out over lines, without a trailing newline.
    static func pretty(_ compact: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(compact.count + compact.count / 2)
        var depth = 0
        var index = 0
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        while index < compact.count {
            let byte = compact[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = stringEnd(compact, from: index)
                out.append(contentsOf: compact[index..<end])
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                out.append(byte)
                if index + 1 < compact.count, compact[index + 1] == close {
                    out.append(close)
                    index += 2
                    continue
                }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [byte, UInt8(ascii: " ")])
            default:
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The index just after the string literal that starts at `start` (escapes skipped).
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }
}
