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

    /// `options` are the command's declarations (`Flag`, `Option`), which its handler reads its values by.
    init(name: String, arguments: [ArgumentSpec], options: [any DeclaredOption], summary: String, example: String,
         access: StoreAccess, run: @escaping @Sendable (ParsedArguments, CommandContext) throws -> Void) {
        self.name = name
        self.arguments = arguments
        self.options = options.map(\.spec)
        self.summary = summary
        self.example = example
        self.access = access
        self.run = run
    }

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
        let options = options.map { option in
            option.required ? option.synopsis : "[\(option.synopsis)\(option.repeatable ? " ..." : "")]"
        }
        return (["abconsole", name] + arguments + options).joined(separator: " ")
    }

    /// The full help of this command.
    var help: String {
        var lines = ["usage: \(usage)", "", summary]
        let all = abconsole.options(of: self)
        let width = all.map(\.synopsis.count).max() ?? 0
        lines += ["", "options:"] + all.map { option in
            "  " + option.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.help
                + (option.required ? " (required)" : "") + (option.repeatable ? " (repeatable)" : "")
        }
        lines += ["", "example:", "  \(example)"]
        return lines.joined(separator: "\n")
    }
}
