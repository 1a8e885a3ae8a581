/// What a subcommand does to the store, declared in the command table so `--read-only` is enforced
/// in one place (`runCommandLine`) and a new command cannot forget it.
enum StoreAccess: Sendable {
    /// Reads the store, or nothing at all; allowed with `--read-only`.
    case reads
    /// Changes the store; refused with `--read-only` (exit 64) before anything is read or written.
    case writes
    /// Changes the store unless `flag` is given (`ramp --dry-run`); refused with `--read-only` otherwise.
    case writesUnless(Flag)
    /// Opens the console, which honours `--read-only` itself by turning its write actions off.
    case console

    /// Whether a run with `arguments` would change the store.
    func writes(_ arguments: ParsedArguments) -> Bool {
        switch self {
        case .reads, .console: false
        case .writes: true
        case .writesUnless(let flag): !arguments[flag]
        }
    }
}
