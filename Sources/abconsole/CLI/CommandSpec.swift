/// One subcommand: its words, arguments, options, help text and what it runs.
struct CommandSpec: Sendable {
    let name: String
    let arguments: [ArgumentSpec]
    let options: [OptionSpec]
    let summary: String
    /// A runnable example for `--help` and README.md.
    let example: String
    /// Whether it changes the store; `--read-only` refuses the commands that do.
    let access: StoreAccess
    let run: @Sendable (ParsedArguments, CommandContext) throws -> Void

    /// The usage line, e.g. `abconsole ramp EXP NAME=PCT... [--dry-run] [--json]`.
    var usage: String {
        let arguments = arguments.map { argument -> String in
            switch argument.arity {
            case .required: argument.name
            case .optional: "[\(argument.name)]"
            case .variadic: "[\(argument.name)...]"
            case .variadicAtLeastOne: "\(argument.name)..."
            }
        }
        let options = options.map { option in "[\(option.name)\(option.value.map { " \($0)" } ?? "")]" }
        return (["abconsole", name] + arguments + options).joined(separator: " ")
    }

    /// The full help of this command.
    var help: String {
        var lines = ["usage: \(usage)", "", summary]
        let all = options + globalOptions
        let width = all.map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
        lines += ["", "options:"] + all.map { option in
            let head = option.name + (option.value.map { " \($0)" } ?? "")
            return "  " + head.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.help
        }
        lines += ["", "example:", "  \(example)"]
        return lines.joined(separator: "\n")
    }
}
