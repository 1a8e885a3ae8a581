import ExperimentCore

/// The fast paths a run of `abconsole` takes, read once from its environment.
extension FastPaths {
    /// Every fast path but merge's and diff's when `ABCONSOLE_PLAIN_MERGE` is set (any value): the
    /// plain merge and diff, the referees the git tests compare the byte-level ones against.
    static func chosen(by environment: [String: String]) -> FastPaths {
        environment["ABCONSOLE_PLAIN_MERGE"] == nil ? .all : FastPaths.all.without(.merge).without(.diff)
    }
}
