import Foundation

/// Why a store operation failed: the store could not be read, locked or written, or the change was
/// refused. Nothing is written when one is thrown.
public enum StoreError: Error, Hashable, Sendable {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case invalid(path: String, problems: [StoreProblem])
    case lockTimeout(path: String, seconds: Double)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    /// The domain refused the change (the store itself is fine and unchanged).
    case refused(ExperimentError)

    /// One clear sentence (for `invalid`, followed by one line per problem), as said to a reader.
    public var message: String { message(refusingChange: false) }

    /// `message`, said to a command that was to change the store (`refusingChange`): an invalid
    /// store then adds that it was left as it was; a command that only reads has nothing to leave.
    public func message(refusingChange: Bool) -> String {
        switch self {
        case .missing(let path):
            "no store at \(path)"
        case .unreadable(let path, let reason):
            "cannot read the store \(path): \(reason)"
        case .invalid(let path, let problems):
            "the store \(path) is not valid (\(problems.count) problem\(problems.count == 1 ? "" : "s")); "
                + (refusingChange ? "it was not changed — fix it" : "fix it") + " by hand or restore it from version control:\n"
                + problems.map { "  \($0)" }.joined(separator: "\n")
        case .lockTimeout(let path, let seconds):
            "another process has held the lock on \(path) for over \(seconds.formatted()) s; try again, or find the stuck process (e.g. `fuser \(path).lock`)"
        case .cannotCreate(let path, let reason):
            "cannot create the store \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            "cannot write the store \(path): \(reason); the previous version is intact"
        case .refused(let error):
            error.message
        }
    }
}
