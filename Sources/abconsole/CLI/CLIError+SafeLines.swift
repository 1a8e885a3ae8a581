import ExperimentCore

extension CLIError {
    /// `message` (of `error`) ready for stderr: control characters shown escaped, since messages
    /// quote what the user typed or the file held; the problem list of an invalid store and of a
    /// CSV import with several bad lines keep their lines (every other message is one line).
    static func safeLines(_ message: String, of error: any Error) -> String {
        let keepsLines = switch (error, domainRefusal(error)) {
        case (StoreError.invalid, _), (_, .importRows?): true
        default: false
        }
        let lines = keepsLines ? message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [message]
        return lines.map(SafeOutput.text).joined(separator: "\n")
    }
}
