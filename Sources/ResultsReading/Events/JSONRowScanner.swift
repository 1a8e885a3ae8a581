import ExperimentCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one JSON Lines row (a JSON object) and lends the wanted members' values as bytes.
///
/// Strings come back unescaped (in the scratch buffer when they held escapes), numbers as their
/// text, `null` as null; other members are skipped whatever they hold. A wanted member given twice
/// is refused rather than guessed.
struct JSONRowScanner {
    let wanted: [[UInt8]]
    var scratch = ScratchBuffer()

    init(wanted: [String]) { self.wanted = wanted.map { Array($0.utf8) } }

    /// Fills `fields` from `line`; returns a problem as (field, reason).
    mutating func scan(_ line: UnsafeBufferPointer<UInt8>, into fields: UnsafeMutableBufferPointer<FieldSlice>) -> (String?, String)? {
        scratch.reset(forRowOf: line.count)
        for index in fields.indices { fields[index] = .absent }
        guard let base = line.baseAddress else { return (nil, "empty line") }
        var cursor = Cursor(base: base, end: line.count)
        cursor.skipSpace()
        guard cursor.peek == UInt8(ascii: "{") else { return (nil, "expected a JSON object `{...}`") }
        cursor.index += 1
        cursor.skipSpace()
        if cursor.peek == UInt8(ascii: "}") {
            cursor.index += 1
        } else {
            while true {
                cursor.skipSpace()
                guard cursor.peek == UInt8(ascii: "\"") else { return (nil, "expected a member name in quotes") }
                guard let key = cursor.string(&scratch) else { return (nil, cursor.problem) }
                let which = match(key)
                cursor.skipSpace()
                guard cursor.peek == UInt8(ascii: ":") else { return (field(which), "expected `:` after the member name") }
                cursor.index += 1
                cursor.skipSpace()
                guard let value = cursor.value(&scratch) else { return (field(which) ?? String(decoding: key.bytes, as: UTF8.self), cursor.problem) }
                if which >= 0 {
                    if fields[which].kind != .absent { return (field(which), "given twice in the row") }
                    fields[which] = value
                }
                cursor.skipSpace()
                if cursor.peek == UInt8(ascii: ",") {
                    cursor.index += 1
                    continue
                }
                guard cursor.peek == UInt8(ascii: "}") else { return (nil, "expected `,` or `}` after a member") }
                cursor.index += 1
                break
            }
        }
        cursor.skipSpace()
        guard cursor.index == cursor.end else { return (nil, "text after the JSON object (one object per line)") }
        return nil
    }

    private func match(_ key: FieldSlice) -> Int {
        for (index, name) in wanted.enumerated() where name.count == key.count {
            if ExposurePass.equal(key.bytes, name) { return index }
        }
        return -1
    }

    private func field(_ index: Int) -> String? { index >= 0 ? String(decoding: wanted[index], as: UTF8.self) : nil }
}

/// A position in one line of JSON.
private struct Cursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    var index = 0
    var problem = ""

    var peek: UInt8 { index < end ? base[index] : 0 }

    mutating func skipSpace() {
        while index < end {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D else { return }
            index += 1
        }
    }

    /// Any JSON value: strings and numbers lent, `null` marked, objects, arrays and booleans skipped.
    mutating func value(_ scratch: inout ScratchBuffer) -> FieldSlice? {
        switch peek {
        case UInt8(ascii: "\""):
            return string(&scratch)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number()
        case UInt8(ascii: "n"):
            guard literal("null") else { return nil }
            return FieldSlice(base: nil, count: 0, kind: .null)
        case UInt8(ascii: "t"):
            guard literal("true") else { return nil }
            return FieldSlice(base: nil, count: 0, kind: .other)
        case UInt8(ascii: "f"):
            guard literal("false") else { return nil }
            return FieldSlice(base: nil, count: 0, kind: .other)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard skipNested() else { return nil }
            return FieldSlice(base: nil, count: 0, kind: .other)
        default:
            problem = index < end ? "expected a JSON value" : "the line ends inside the object"
            return nil
        }
    }

    /// A number as RFC 8259 writes it: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, lent as its text.
    private mutating func number() -> FieldSlice? {
        let start = index
        func digits() -> Int {
            let first = index
            while index < end, base[index] >= 0x30, base[index] <= 0x39 { index += 1 }
            return index - first
        }
        if peek == UInt8(ascii: "-") { index += 1 }
        let leadingZero = peek == UInt8(ascii: "0")
        var valid = digits() > 0
        if leadingZero, index - start > (base[start] == UInt8(ascii: "-") ? 2 : 1) { valid = false }
        if valid, peek == UInt8(ascii: ".") {
            index += 1
            valid = digits() > 0
        }
        if valid, peek | 0x20 == UInt8(ascii: "e") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            valid = digits() > 0
        }
        // What a number may not run into: more number-like bytes (`1e+-.`, `--1-`, `01`).
        if valid, index < end, (base[index] >= 0x30 && base[index] <= 0x39) || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                                                                               UInt8(ascii: "+"), UInt8(ascii: "-")].contains(base[index]) {
            valid = false
        }
        guard valid else {
            while index < end, !" \t\r,}]".utf8.contains(base[index]) { index += 1 }
            problem = "`\(String(decoding: UnsafeBufferPointer(start: base + start, count: min(index - start, 40)), as: UTF8.self))` is not a valid JSON number"
            return nil
        }
        return FieldSlice(base: base + start, count: index - start, kind: .number)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - index >= count, memcmp(base + index, word.utf8Start, count) == 0 else {
            problem = "expected a JSON value"
            return false
        }
        index += count
        return true
    }

    /// Skips an object or array, strings inside included.
    private mutating func skipNested() -> Bool {
        var depth = 0
        while index < end {
            let byte = base[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > 512 {
                    problem = "nested too deeply"
                    return false
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    index += 1
                    return true
                }
            case UInt8(ascii: "\""):
                index += 1
                while index < end, base[index] != UInt8(ascii: "\"") {
                    index += base[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            default:
                break
            }
            index += 1
        }
        problem = "the line ends inside a nested value"
        return false
    }

    /// A string at `index` (on its opening quote), unescaped into `scratch` only when it holds escapes.
    mutating func string(_ scratch: inout ScratchBuffer) -> FieldSlice? {
        index += 1
        let start = index
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return FieldSlice(base: base + start, count: index - 1 - start, kind: .string)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                problem = "a control character inside a string"
                return nil
            }
            index += 1
        }
        let scratchStart = scratch.used
        for offset in start..<index { scratch.append(base[offset]) }
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return FieldSlice(base: UnsafePointer(scratch.pointer + scratchStart), count: scratch.used - scratchStart, kind: .string)
            }
            if byte < 0x20 {
                problem = "a control character inside a string"
                return nil
            }
            if byte != UInt8(ascii: "\\") {
                scratch.append(byte)
                index += 1
                continue
            }
            guard index + 1 < end else { break }
            let escape = base[index + 1]
            index += 2
            if let simple = JSONEscape.simple(escape) {
                scratch.append(simple)
                continue
            }
            switch escape {
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 1 < end, base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u") else {
                        problem = "a lone surrogate escape in a string"
                        return nil
                    }
                    index += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else {
                        problem = "a lone surrogate escape in a string"
                        return nil
                    }
                    scalar = JSONEscape.joined(high: scalar, low: low)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    problem = "a lone surrogate escape in a string"
                    return nil
                }
                // \uXXXX takes six bytes and its UTF-8 at most four, so the scratch never overflows.
                for byte in String(UnicodeScalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8 { scratch.append(byte) }
            default:
                problem = "an unknown escape `\\\(Character(UnicodeScalar(escape)))` in a string"
                return nil
            }
        }
        problem = "a string is not closed on its line"
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard end - index >= 4 else {
            problem = "a \\u escape needs four hex digits"
            return nil
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONEscape.hexDigit(base[index]) else {
                problem = "a \\u escape needs four hex digits"
                return nil
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
