import Foundation

/// The rows of a body posted to `/v1/exposures` or `/v1/conversions` (SPEC §13): a JSON array of
/// row objects, or JSON Lines (one object a line), each row as one line of JSON, ready to append.
enum PostedRows {
    /// The rows in order (`index` 0-based: array elements, or the non-blank lines), or why the body is
    /// neither a JSON array nor JSON Lines. Pure: no store, no files.
    static func lines(_ body: Data) -> Result<[[UInt8]], PostedBodyError> {
        guard String(data: body, encoding: .utf8) != nil else { return .failure(.init("the body is not UTF-8 text (JSON is UTF-8)")) }
        var bytes = [UInt8](body)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let first = bytes.first(where: { !isSpace($0) }) else {
            return .failure(.init("the body is empty: post a JSON array of rows, or JSON Lines (one object a line)"))
        }
        if first == UInt8(ascii: "[") { return arrayRows(bytes) }
        guard first == UInt8(ascii: "{") else {
            return .failure(.init("the body is neither a JSON array of rows nor JSON Lines (one object a line)"))
        }
        return .success(jsonLines(bytes))
    }

    /// The non-blank lines, without their `\r\n` or `\n`.
    private static func jsonLines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).compactMap { line in
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            return line.allSatisfy(isSpace) ? nil : Array(line)
        }
    }

    /// The elements of a JSON array, each with the spaces and line breaks between its tokens left
    /// out (inside strings they are escaped, so every value keeps its exact text on one line).
    private static func arrayRows(_ bytes: [UInt8]) -> Result<[[UInt8]], PostedBodyError> {
        do {
            guard try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) is [Any] else {
                return .failure(.init("the body is not a JSON array"))
            }
        } catch {
            return .failure(.init("the body is not valid JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "it does not parse")"))
        }
        var rows: [[UInt8]] = []
        var current: [UInt8] = []
        var depth = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                current.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if isSpace(byte) { continue }
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { continue }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    if !current.isEmpty { rows.append(current) }
                    return .success(rows)
                }
            case UInt8(ascii: ",") where depth == 1:
                rows.append(current)
                current = []
                continue
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            current.append(byte)
        }
        return .success(rows)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

/// Why a posted body holds no rows to read: answered `400` with the sentence as `errorDetails`.
struct PostedBodyError: Error, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
