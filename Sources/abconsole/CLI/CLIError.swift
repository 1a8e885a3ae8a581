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

    static func usage(_ message: String, command: CommandSpec?) -> CLIError {
        CLIError(code: .usage, message: message, command: command)
    }

    static func data(_ message: String) -> CLIError { CLIError(code: .dataError, message: message) }
}

extension CLIError {
    /// The CLI error for any error a command can meet.
    init(_ error: any Error) {
        switch error {
        case let error as CLIError:
            self = error
        case let error as ExperimentError:
            self.init(code: CLIError.code(for: error), message: CLIError.message(for: error))
        case let error as StoreError:
            self.init(code: CLIError.code(for: error), message: CLIError.message(for: error))
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
    private static func message(for error: StoreError) -> String {
        switch error {
        case .missing: error.message + "; create an experiment with `abconsole create` or point --store at an existing file"
        case .refused(let refusal): message(for: refusal)
        default: error.message
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
