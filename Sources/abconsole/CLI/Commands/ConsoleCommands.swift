import ExperimentCore
import Foundation

/// `demo` and the bare `abconsole`: open the interactive console.
enum ConsoleCommands {
    static func demo(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        throw CLIError(code: .usage, message: "the interactive console is not built yet; use the subcommands (`abconsole --help`)")
    }
}
