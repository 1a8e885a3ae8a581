import ConsoleUI
import ExperimentCore
import ExperimentResults
import ResultsReading
import ExperimentStore
import Foundation

/// `demo` and the bare `abconsole`: open the interactive console.
enum ConsoleCommands {
    /// `abconsole demo`: the console on a scratch copy of sample-data/experiments.json, removed on exit unless `--keep`.
    static func demo(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        guard let sample = SampleStore.locate(environment: context.environment) else {
            throw CLIError(code: .noInput, message: "cannot find sample-data/experiments.json; run `abconsole demo` from the package folder or set ABCONSOLE_SAMPLE")
        }
        let copy = try SampleStore.scratchCopy(of: sample)
        let keep = arguments[Self.keep]
        // Removed however the console ends (quit, no terminal, an error), unless asked to keep it.
        defer { if !keep { SampleStore.remove(copy) } }
        let store = StoreFile(path: copy, lockTimeout: context.store.lockTimeout, fastPaths: context.fastPaths)
        context.exit.code = try ConsoleLauncher.run(store: store, operatorName: context.operatorName, readOnly: arguments[GlobalOptions.readOnly],
                                                    now: context.now, readParallelism: context.readParallelism)
        context.output.line(keep ? "demo store kept at \(SafeOutput.text(copy))"
                                 : "demo store removed (run `abconsole demo --keep` to keep the scratch copy)")
    }

    /// `abconsole` with no command: the console on the configured store.
    static func open(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        context.exit.code = try ConsoleLauncher.run(store: context.store, operatorName: context.operatorName, readOnly: arguments[GlobalOptions.readOnly],
                                                    now: context.now, eventPaths: EventPaths(besideStore: context.store.path, environment: context.environment),
                                                    readParallelism: context.readParallelism)
    }
}

/// The exit code a command asks for when it succeeds with something other than 0 (the console).
final class ExitStatus {
    var code: Int32 = 0
}
