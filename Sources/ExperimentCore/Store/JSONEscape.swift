/// The byte-level rules of JSON string escapes, shared by every reader that unescapes JSON text
/// (the store's reader and the event logs' JSON Lines scanner).
package enum JSONEscape {
    /// The byte a one-character escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) stands for;
    /// nil for `u` and for anything JSON does not allow.
    @inline(__always)
    package static func simple(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of one hexadecimal digit of a `\uXXXX` escape; nil for any other byte.
    @inline(__always)
    package static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The scalar value of a UTF-16 surrogate pair written as two escapes.
    @inline(__always)
    package static func joined(high: UInt32, low: UInt32) -> UInt32 {
        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }

    /// How the store's writer escapes `byte` in a string: the character after the backslash (`"`,
    /// `\`, `b`, `f`, `n`, `r`, `t`), or `u` for `\u00xx` with `lowercaseHex` digits; nil for a byte
    /// it writes as itself (anything from 0x20 on but `"` and `\`). The writer's one rule, which the
    /// reader also checks when it recognises the writer's bytes.
    @inline(__always)
    package static func written(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        case ..<0x20: UInt8(ascii: "u")
        default: nil
        }
    }

    /// The digits of the writer's `\u00xx` escapes, by value.
    package static let lowercaseHex: [UInt8] = Array("0123456789abcdef".utf8)
}
