import Foundation

/// Finds the first JSON syntax error of a document and where it is, by line and column.
///
/// Foundation's decoder says only that the data is not valid JSON (its wording differs between
/// platforms); a bad hand merge is found at once when the message says where. This is a small
/// validating scan (RFC 8259 grammar, an explicit stack, so deep nesting cannot overflow).
enum JSONSyntax {
    /// A syntax error: the byte offset, its 1-based line and column (in characters), and what was expected.
    struct Problem: Equatable {
        var offset: Int
        var line: Int
        var column: Int
        var message: String
        /// Whether the line is one of git's conflict markers (a line-by-line merge of the store).
        var isConflictMarker = false

        /// `line 3, column 7: expected `,` or `}``.
        var text: String { "line \(line), column \(column): \(message)" }
    }

    /// The first syntax error of `data`, or nil when it is well-formed JSON.
    static func firstProblem(in data: Data) -> Problem? {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        guard let (offset, message) = scanner.firstError() else { return nil }
        // A hand merge left git's conflict markers: say so rather than what JSON expected there.
        let lineStart = bytes[..<min(offset, bytes.count)].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        for marker in ["<<<<<<<", "=======", ">>>>>>>", "|||||||"] where bytes[lineStart...].starts(with: marker.utf8) {
            var problem = locate(lineStart, in: bytes, message: "a merge conflict marker `\(marker)`; \(conflictMarkerAdvice)")
            problem.isConflictMarker = true
            return problem
        }
        return locate(offset, in: bytes, message: message)
    }

    /// The way out of a store git merged line by line, without the abconsole merge driver.
    static let conflictMarkerAdvice = "the store was merged line by line, without the abconsole merge driver. "
        + "Merge it by meaning from the three index stages (git show :1:FILE >base.json; :2: >ours.json; :3: >theirs.json; "
        + "abconsole merge base.json ours.json theirs.json --out FILE), or take one side whole (git checkout --ours FILE, "
        + "or --theirs); `abconsole git-setup` makes git use the driver next time"

    private static func locate(_ offset: Int, in bytes: [UInt8], message: String) -> Problem {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Problem(offset: offset, line: line, column: column, message: message)
    }

    private struct Scanner {
        enum Expect { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }

        let bytes: [UInt8]
        var index = 0
        var stack: [UInt8] = []
        var expect = Expect.value

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        /// The offset and description of the first error, or nil.
        mutating func firstError() -> (Int, String)? {
            while true {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
                guard index < bytes.count else {
                    return expect == .end ? nil : (index, "the file ends early; expected \(describe(expect))")
                }
                let byte = bytes[index]
                switch expect {
                case .end:
                    return (index, "unexpected text after the end of the document")
                case .colon:
                    guard byte == UInt8(ascii: ":") else { return (index, "expected `:` after an object key") }
                    index += 1
                    expect = .value
                case .commaOrClose:
                    let close = stack.last == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        expect = stack.last == UInt8(ascii: "{") ? .key : .value
                    } else if byte == close {
                        index += 1
                        closeContainer()
                    } else {
                        return (index, "expected `,` or `\(Character(Unicode.Scalar(close)))`")
                    }
                case .key, .keyOrClose:
                    if expect == .keyOrClose, byte == UInt8(ascii: "}") {
                        index += 1
                        closeContainer()
                    } else if byte == UInt8(ascii: "\"") {
                        if let error = scanString() { return error }
                        expect = .colon
                    } else {
                        return (index, expect == .key ? "expected a quoted key after `,`" : "expected a quoted key or `}`")
                    }
                case .value, .valueOrClose:
                    if expect == .valueOrClose, byte == UInt8(ascii: "]") {
                        index += 1
                        closeContainer()
                    } else if let error = scanValue(byte) {
                        return error
                    }
                }
            }
        }

        private mutating func scanValue(_ byte: UInt8) -> (Int, String)? {
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(byte)
                index += 1
                expect = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                return nil
            case UInt8(ascii: "\""):
                if let error = scanString() { return error }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if let error = scanNumber() { return error }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
                guard bytes[index...].starts(with: word.utf8) else { return (index, "expected a value (did you mean `\(word)`?)") }
                index += word.utf8.count
            default:
                let trailing = byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                return (index, trailing ? "expected a value, not `\(Character(Unicode.Scalar(byte)))` (a trailing comma?)" : "expected a value")
            }
            expect = stack.isEmpty ? .end : .commaOrClose
            return nil
        }

        private mutating func closeContainer() {
            stack.removeLast()
            expect = stack.isEmpty ? .end : .commaOrClose
        }

        /// Scans a string starting at its opening quote.
        private mutating func scanString() -> (Int, String)? {
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return (start, "a string is never closed") }
                    let escaped = bytes[index + 1]
                    if escaped == UInt8(ascii: "u") {
                        let hex = bytes[min(index + 2, bytes.count)..<min(index + 6, bytes.count)]
                        guard hex.count == 4, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
                            return (index, "expected four hex digits after `\\u`")
                        }
                        index += 6
                    } else {
                        guard Array("\"\\/bfnrt".utf8).contains(escaped) else { return (index, "an unknown escape in a string") }
                        index += 2
                    }
                case 0x00..<0x20:
                    return (index, byte == 0x0A ? "a string is not closed before the end of the line" : "a control character in a string; escape it")
                default:
                    index += 1
                }
            }
            return (start, "a string is never closed")
        }

        private mutating func scanNumber() -> (Int, String)? {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integer = index
            guard digits() > 0 else { return (index, "expected a digit") }
            if bytes[integer] == UInt8(ascii: "0"), index - integer > 1 { return (start, "a number cannot start with 0") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return (index, "expected a digit after the decimal point") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return (index, "expected a digit in the exponent") }
            }
            return nil
        }

        private func describe(_ expect: Expect) -> String {
            switch expect {
            case .value: "a value"
            case .valueOrClose: "a value or `]`"
            case .key: "a quoted key"
            case .keyOrClose: "a quoted key or `}`"
            case .colon: "`:`"
            case .commaOrClose: stack.last == UInt8(ascii: "{") ? "`,` or `}`" : "`,` or `]`"
            case .end: "nothing more"
            }
        }
    }
}
