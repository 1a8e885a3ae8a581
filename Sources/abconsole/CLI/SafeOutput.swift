import ExperimentCore
import ExperimentStore
import Foundation
import TerminalText

/// Formats what commands print: terminal-safe text and deterministic JSON.
enum SafeOutput {
    /// `text` with control characters and escape sequences shown escaped, never sent raw.
    static func text(_ text: String) -> String { SafeText.escaped(text) }

    /// JSON with sorted keys, as one string (no trailing newline): laid out over lines (`"key": value`,
    /// `[]` when empty) unless `pretty` is false, then on one line.
    static func json(_ value: some Encodable, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let compact = try PayloadEncoding.encode(value, with: encoder)
        return pretty ? JSONLayout.pretty(Array(compact)) : String(decoding: compact, as: UTF8.self)
    }

    /// Rows aligned in columns by display width; every cell made terminal-safe.
    static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let safeRows = rows.map { $0.map(text) }
        let widths = header.indices.map { column in
            ([header[column]] + safeRows.map { $0[column] }).map { DisplayWidth.of($0) }.max() ?? 0
        }
        return ([header] + safeRows).map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : DisplayWidth.pad(row[column], toWidth: widths[column])
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    /// The string without trailing spaces.
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
