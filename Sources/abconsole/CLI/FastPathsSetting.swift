import ExperimentCore
import Foundation

/// The fast paths a run of `abconsole` takes, read once from its environment.
extension FastPaths {
    /// Every fast path but those `ABCONSOLE_PLAIN` names (comma-separated operation names, or `all`);
    /// `ABCONSOLE_PLAIN_MERGE` (any value) turns off merge's and diff's, `ABCONSOLE_PLAIN_EXPORT` export's.
    static func chosen(by environment: [String: String]) throws -> FastPaths {
        var paths = FastPaths.all
        if environment["ABCONSOLE_PLAIN_MERGE"] != nil { paths = paths.without(.merge).without(.diff) }
        if environment["ABCONSOLE_PLAIN_EXPORT"] != nil { paths = paths.without(.export) }
        guard let text = environment["ABCONSOLE_PLAIN"].nonEmpty else { return paths }
        for word in text.split(separator: ",", omittingEmptySubsequences: true).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if word == "all" { return .plain }
            guard let operation = Operation(rawValue: word) else {
                let names = Operation.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIError.usage("ABCONSOLE_PLAIN names fast paths to turn off (\(names), or all), not `\(SafeOutput.text(word))`", command: nil)
            }
            paths = paths.without(operation)
        }
        return paths
    }
}
