import ExperimentResults
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a row's field bytes into values, or into an error naming the file, line and field.
struct FieldValues {
    let path: String

    /// The timestamp of a row, in nanoseconds since 1970.
    func timestamp(_ slice: FieldSlice, line: Int, field: String = "timestamp") throws(EventError) -> Int64 {
        guard slice.kind == .string else { throw .malformed(file: path, line: line, field: field, reason: "expected an RFC 3339 time in a string") }
        switch EventTime.parse(slice.bytes) {
        case .success(let nanos): return nanos
        case .failure(let problem):
            throw .malformed(file: path, line: line, field: field, reason: "\(problem.reason), not `\(Self.quote(slice.bytes))`")
        }
    }

    /// A non-empty text field; JSON integers are read as their digits (ids logged as numbers).
    func text(_ slice: FieldSlice, line: Int, field: String) throws(EventError) -> UnsafeBufferPointer<UInt8> {
        switch slice.kind {
        case .string:
            guard slice.count > 0 else { throw .malformed(file: path, line: line, field: field, reason: "empty") }
            return slice.bytes
        case .number:
            guard slice.bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == UInt8(ascii: "-") }) else {
                throw .malformed(file: path, line: line, field: field, reason: "expected a string, not the number \(Self.quote(slice.bytes))")
            }
            return slice.bytes
        default:
            throw .malformed(file: path, line: line, field: field, reason: "expected a string")
        }
    }

    /// The optional `value` of a conversion: nil when absent, null or (CSV) empty.
    func number(_ slice: FieldSlice, line: Int, field: String, quotedAllowed: Bool) throws(EventError) -> Double? {
        switch slice.kind {
        case .absent, .null: return nil
        case .string where quotedAllowed:
            if slice.count == 0 { return nil }
            return try parse(slice.bytes, line: line, field: field)
        case .number:
            return try parse(slice.bytes, line: line, field: field)
        default:
            throw .malformed(file: path, line: line, field: field, reason: "expected a number")
        }
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, field: String) throws(EventError) -> Double {
        if bytes.count <= 15, let whole = Self.integer(bytes) { return Double(whole) }
        let fail = EventError.malformed(file: path, line: line, field: field, reason: "expected a number, not `\(Self.quote(bytes))`")
        guard bytes.count < 64, let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39),
              bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") })
        else { throw fail }
        var buffer = (0..<64).map { _ in CChar(0) }
        for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        var parsed: Double = .nan
        var consumed = 0
        buffer.withUnsafeMutableBufferPointer { text in
            guard let start = text.baseAddress else { return }
            var end: UnsafeMutablePointer<CChar>?
            parsed = strtod(start, &end)
            consumed = end.map { start.distance(to: $0) } ?? 0
        }
        guard consumed == bytes.count, parsed.isFinite else { throw fail }
        return parsed
    }

    /// A plain decimal integer (optional minus), or nil.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// Up to 40 characters of the field for a message.
    static func quote(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return bytes.count > 40 ? text + "…" : text
    }
}
