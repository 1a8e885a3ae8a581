import Foundation

/// Why a user-named input file (a whitelist import, a subject list) was not read: one sentence.
public struct InputFileError: Error, Equatable, Sendable {
    /// The file as named.
    public let path: String
    /// Why it was not read (`it is a device, not a file`, `it does not exist`).
    public let reason: String
    /// It was readable but longer than the limit (a refusal of the data, not of the file).
    public let tooLarge: Bool

    public var message: String {
        tooLarge ? "\(path) is larger than \(reason); split it into smaller files" : "cannot open \(path): \(reason)"
    }

    /// The input file at `path` read whole, at most `limit` bytes (see `FileSystem.readInput`).
    package static func read(_ path: String, limit: Int) throws(InputFileError) -> Data {
        do {
            return try FileSystem.readInput(path, limit: limit)
        } catch {
            switch error {
            case .unreadable(let reason): throw InputFileError(path: path, reason: reason, tooLarge: false)
            case .tooLarge(let limit): throw InputFileError(path: path, reason: "\(limit >> 20) MiB", tooLarge: true)
            }
        }
    }
}
