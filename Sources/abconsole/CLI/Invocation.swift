import ExperimentCore
import ExperimentStore
import Foundation

/// Settings read once from the command line and the environment.
struct Invocation {
    let storePath: String
    let operatorName: String
    let lockTimeout: Double
    let now: () -> Date
    /// The byte-level fast paths this run may take (`ABCONSOLE_PLAIN_MERGE`).
    let fastPaths: FastPaths

    init(_ arguments: ParsedArguments, environment: [String: String]) throws {
        storePath = arguments[GlobalOptions.store] ?? environment["ABCONSOLE_STORE"].nonEmpty ?? "experiments.json"
        guard !storePath.isEmpty else { throw CLIError.usage("--store needs a file name", command: nil) }
        operatorName = arguments[GlobalOptions.operatorName] ?? environment["ABCONSOLE_OPERATOR"].nonEmpty
            ?? environment["USER"].nonEmpty ?? ProcessInfo.processInfo.userName
        if let text = environment["ABCONSOLE_LOCK_TIMEOUT"].nonEmpty {
            // `inf`, `1e309` and `nan` read as doubles but would wait forever (or never): refused.
            guard let seconds = DecimalText.value(text), seconds.isFinite, seconds >= 0 else {
                throw CLIError.usage("ABCONSOLE_LOCK_TIMEOUT must be a number of seconds, not `\(SafeOutput.text(text))`", command: nil)
            }
            lockTimeout = seconds
        } else {
            lockTimeout = 10
        }
        if let text = environment["ABCONSOLE_NOW"].nonEmpty {
            // The store's own form, checked field by field: Foundation rolls 2026-02-30 over to March
            // and writes year 0000 as 0001.
            guard let seconds = Array(text.utf8).withUnsafeBufferPointer(StoreDate.seconds(parsing:)) else {
                throw CLIError.usage("ABCONSOLE_NOW must be a real UTC time in the form 2026-01-31T09:30:00Z (years 1900–9999), not `\(SafeOutput.text(text))`", command: nil)
            }
            let fixed = Date(timeIntervalSince1970: Double(seconds))
            now = { fixed }
        } else {
            now = Date.init
        }
        fastPaths = FastPaths.chosen(by: environment)
    }

    /// The context commands run in.
    func context(output: OutputBuffer, environment: [String: String], exit: ExitStatus) -> CommandContext {
        CommandContext(store: StoreFile(path: storePath, lockTimeout: lockTimeout, fastPaths: fastPaths), operatorName: operatorName, now: now,
                       output: output, environment: environment, exit: exit)
    }
}

extension Optional where Wrapped == String {
    /// The string, or nil when it is missing or empty.
    var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}

/// Runs `abconsole` with `words` (without the program name) and returns the exit code.
///
/// A failed write to standard output ends the command with 74 and one sentence on stderr, or with
/// the SIGPIPE status and nothing said when the reader has gone; a command's own refusal keeps its code.
func runCommandLine(_ words: [String], environment: [String: String]) -> Int32 {
    let output = OutputBuffer()
    let code = runCommand(words, environment: environment, output: output)
    output.flush()
    guard code == 0, let failure = output.failure else { return code }
    if failure.isClosedPipe { return StandardStreams.closedPipeStatus }
    StandardStreams.writeError("abconsole: cannot write to standard output: \(failure.reason); the output is incomplete\n")
    return CLIError.Code.ioError.rawValue
}

/// Parses and runs one command, writing a refusal to stderr; the exit code.
private func runCommand(_ words: [String], environment: [String: String], output: OutputBuffer) -> Int32 {
    let exit = ExitStatus()
    // Whether the command was to change the store (a refusal then says the store was left as it was).
    var changing = false
    do {
        if words.first == Completion.hiddenCommand {
            Completion.candidates(for: Array(words.dropFirst()), environment: environment).forEach(output.line)
            return 0
        }
        switch try parseCommandLine(words, commands: commandTable) {
        case .help(let topic):
            output.line(helpText(topic))
        case .version:
            output.line(Version.line)
        case .noCommand(let arguments):
            let invocation = try Invocation(arguments, environment: environment)
            try ConsoleCommands.open(arguments, invocation.context(output: output, environment: environment, exit: exit))
        case .command(let spec, let arguments):
            changing = spec.access.writes(arguments)
            do {
                if arguments[GlobalOptions.readOnly], spec.access.writes(arguments) {
                    throw CLIError.usage("`\(spec.name)` changes the store, and --read-only allows no change; run it without --read-only", command: spec)
                }
                let invocation = try Invocation(arguments, environment: environment)
                let context = invocation.context(output: output, environment: environment, exit: exit)
                do {
                    try spec.run(arguments, context)
                } catch {
                    if case .unknownExperiment(let key)? = domainRefusal(error) { throw CLIError.unknownExperiment(key, in: context.store) }
                    throw error
                }
            } catch var failure as CLIError where failure.code == .usage && failure.command == nil {
                failure.command = spec
                throw failure
            }
        }
        return exit.code
    } catch {
        let failure = CLIError(error, changing: changing)
        output.flush()
        var text = "abconsole: \(CLIError.safeLines(failure.message, of: error))\n"
        if failure.code == .usage {
            text += failure.command.map { "usage: \($0.usage)\n" }
                ?? failure.group.map { "Run `abconsole \($0) --help` for its subcommands.\n" }
                ?? "Run `abconsole --help` for the commands.\n"
        }
        StandardStreams.writeError(text)
        return failure.code.rawValue
    }
}

/// The domain's refusal in `error`, whether thrown by the core directly or passed on by the store.
func domainRefusal(_ error: any Error) -> ExperimentError? {
    switch error {
    case let refusal as ExperimentError: refusal
    case StoreError.refused(let refusal): refusal
    default: nil
    }
}
