/// Why an event log could not be read: every message names the file, and for a bad row the line and field.
package enum EventError: Error, Equatable, Sendable {
    /// The file does not exist (exit 66).
    case missing(file: String)
    /// The file exists but cannot be read (exit 66).
    case unreadable(file: String, reason: String)
    /// The file name does not say JSON Lines or CSV (exit 64).
    case unknownFormat(file: String)
    /// A file that must be CSV (a `--summary`) is named otherwise (exit 64).
    case notCSV(file: String)
    /// A row breaks the format (exit 65).
    case malformed(file: String, line: Int, field: String?, reason: String)
    /// The reading was cancelled (the console's Esc).
    case cancelled

    /// One sentence a person can act on.
    package var message: String {
        switch self {
        case .missing(let file):
            "\(file): no such file (log events there, or point --exposures/--conversions at the logs)"
        case .unreadable(let file, let reason):
            "\(file): cannot be read: \(reason)"
        case .unknownFormat(let file):
            "\(file): cannot tell the format from the name; name the file .jsonl or .ndjson (JSON Lines) or .csv"
        case .notCSV(let file):
            "\(file): a summary is a CSV file (metric,type,variant,subjects,sum,sum_squares); name it .csv"
        case .malformed(let file, let line, let field, let reason):
            "\(file):\(line): " + (field.map { "field `\($0)`: " } ?? "") + reason
        case .cancelled:
            "cancelled"
        }
    }
}
