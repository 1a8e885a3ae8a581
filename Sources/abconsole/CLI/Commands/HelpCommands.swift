import ExperimentCore

/// `help [COMMAND]` and `completion SHELL`: text generated from the command table.
enum HelpCommands {
    /// `abconsole help [COMMAND [SUBCOMMAND]]`: the same text as `--help`.
    static func help(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let words = arguments.arguments("COMMAND")
        guard !words.isEmpty else {
            context.output.line(overviewHelp())
            return
        }
        switch try parseCommandLine(words + ["--help"], commands: commandTable) {
        case .help(let topic) where !isOverview(topic):
            context.output.line(helpText(topic))
        default:
            let names = commandTable.map { String($0.name.prefix { $0 != " " }) }
            throw CLIError.usage("no command `\(SafeOutput.text(words.joined(separator: " ")))`\(Suggestions.hint(for: words[0], among: names))", command: nil)
        }
    }

    /// `abconsole completion bash|zsh|fish`: the shell's completion script.
    static func completion(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        context.output.line(CompletionScripts.script(for: arguments.argument("SHELL") ?? "bash"))
    }

    private static func isOverview(_ topic: HelpTopic) -> Bool {
        if case .overview = topic { true } else { false }
    }
}
