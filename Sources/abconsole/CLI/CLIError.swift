import ExperimentCore
import ExperimentStore

/// A failure of a subcommand: one sentence for stderr and a sysexits exit code.
struct CLIError: Error {
    /// sysexits codes used by abconsole.
    enum Code: Int32 {
        case usage = 64, dataError = 65, noInput = 66, cannotCreate = 73, ioError = 74, tempFailure = 75
    }

    let code: Code
    let message: String
    /// The command whose usage line should follow a usage error.
    var command: CommandSpec?
    /// The command group (`whitelist`) whose help a usage error points to, when there is no command.
    var group: String?

    static func usage(_ message: String, command: CommandSpec?) -> CLIError {
        CLIError(code: .usage, message: message, command: command)
    }

    /// A usage error inside a command group, pointing to the group's help.
    static func usage(_ message: String, group: String) -> CLIError {
        CLIError(code: .usage, message: message, command: nil, group: group)
    }

    static func data(_ message: String) -> CLIError { CLIError(code: .dataError, message: message) }

    /// No experiment `key`: the domain's refusal, with the closest keys of the store when one is near.
    static func unknownExperiment(_ key: String, in store: StoreFile) -> CLIError {
        let keys = (try? store.load().experiments.keys).map(Array.init) ?? []
        let hint = Suggestions.hint(for: key, among: keys)
        guard !hint.isEmpty else { return CLIError(ExperimentError.unknownExperiment(key)) }
        return .data("no experiment `\(key)` in the store\(hint)")
    }
}

extension CLIError {
    /// The CLI error for any error a command can meet; `changing` when the command was to change the store.
    init(_ error: any Error, changing: Bool = false) {
        switch error {
        case let error as CLIError:
            self = error
        case let error as ExperimentError:
            self.init(code: CLIError.code(for: error), message: CLIError.message(for: error))
        case let error as StoreError:
            self.init(code: CLIError.code(for: error), message: CLIError.message(for: error, changing: changing))
        case let error as InputFileError:
            self.init(code: error.tooLarge ? .dataError : .noInput, message: error.message)
        default:
            self.init(code: .ioError, message: "unexpected failure: \(error)")
        }
    }

    private static func code(for error: StoreError) -> Code {
        switch error {
        case .missing, .unreadable: .noInput
        case .invalid: .dataError
        case .lockTimeout: .tempFailure
        case .cannotCreate: .cannotCreate
        case .cannotWrite: .ioError
        case .refused(let refusal): code(for: refusal)
        }
    }

    private static func code(for error: ExperimentError) -> Code {
        if case .conflict = error { .tempFailure } else { .dataError }
    }

    /// The core's statement of the problem, with what to do about it in this CLI's terms.
    private static func message(for error: StoreError, changing: Bool) -> String {
        switch error {
        case .missing: error.message + "; create an experiment with `abconsole create` or point --store at an existing file"
        case .refused(let refusal): message(for: refusal)
        default: error.message(refusingChange: changing)
        }
    }

    private static func message(for error: ExperimentError) -> String {
        switch error {
        case .unknownExperiment: error.message + "; `abconsole list` shows the keys"
        case .invalidOperator: error.message + " (set --operator or ABCONSOLE_OPERATOR)"
        case .noVariants: error.message + ", e.g. --variants control=50,treatment=50"
        default: error.message
        }
    }
}
