import ExperimentCore
import ExperimentStore
import Foundation

/// Settings read once from the command line and the environment.
struct Invocation {
    let storePath: String
    let operatorName: String
    let lockTimeout: Double
    let now: () -> Date

    init(_ arguments: ParsedArguments, environment: [String: String]) throws {
        storePath = arguments.option("--store") ?? environment["ABCONSOLE_STORE"].nonEmpty ?? "experiments.json"
        operatorName = arguments.option("--operator") ?? environment["ABCONSOLE_OPERATOR"].nonEmpty
            ?? environment["USER"].nonEmpty ?? ProcessInfo.processInfo.userName
        if let text = environment["ABCONSOLE_LOCK_TIMEOUT"].nonEmpty {
            guard let seconds = Double(text), seconds >= 0 else {
                throw CLIError.usage("ABCONSOLE_LOCK_TIMEOUT must be a number of seconds, not `\(SafeOutput.text(text))`", command: nil)
            }
            lockTimeout = seconds
        } else {
            lockTimeout = 10
        }
        if let text = environment["ABCONSOLE_NOW"].nonEmpty {
            guard let fixed = try? Date(text, strategy: .iso8601) else {
                throw CLIError.usage("ABCONSOLE_NOW must be an ISO 8601 time such as 2026-01-31T09:30:00Z", command: nil)
            }
            now = { fixed }
        } else {
            now = Date.init
        }
    }

    /// The context commands run in.
    func context(output: OutputBuffer, environment: [String: String], exit: ExitStatus) -> CommandContext {
        CommandContext(store: StoreFile(path: storePath, lockTimeout: lockTimeout), operatorName: operatorName, now: now,
                       output: output, environment: environment, exit: exit)
    }
}

extension Optional where Wrapped == String {
    /// The string, or nil when it is missing or empty.
    var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}

/// Runs `abconsole` with `words` (without the program name) and returns the exit code.
func runCommandLine(_ words: [String], environment: [String: String]) -> Int32 {
    let output = OutputBuffer()
    let exit = ExitStatus()
    defer { output.flush() }
    do {
        switch try parseCommandLine(words, commands: commandTable) {
        case .help(let command):
            output.line(command?.help ?? overviewHelp())
        case .noCommand(let arguments):
            let invocation = try Invocation(arguments, environment: environment)
            try ConsoleCommands.open(arguments, invocation.context(output: output, environment: environment, exit: exit))
        case .command(let spec, let arguments):
            do {
                if arguments.flag("--read-only"), spec.access.writes(arguments) {
                    throw CLIError.usage("`\(spec.name)` changes the store, and --read-only allows no change; run it without --read-only", command: spec)
                }
                let invocation = try Invocation(arguments, environment: environment)
                try spec.run(arguments, invocation.context(output: output, environment: environment, exit: exit))
            } catch var failure as CLIError where failure.code == .usage && failure.command == nil {
                failure.command = spec
                throw failure
            }
        }
        return exit.code
    } catch {
        let failure = CLIError(error)
        output.flush()
        // Messages quote what the user typed or the file held: show its control characters escaped.
        // Only the problem list of an invalid store is several lines.
        let keepsLines = if case .invalid? = error as? StoreError { true } else { false }
        let lines = keepsLines ? failure.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [failure.message]
        var text = "abconsole: \(lines.map(SafeOutput.text).joined(separator: "\n"))\n"
        if failure.code == .usage {
            text += failure.command.map { "usage: \($0.usage)\n" } ?? "Run `abconsole --help` for the commands.\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
        return failure.code.rawValue
    }
}
