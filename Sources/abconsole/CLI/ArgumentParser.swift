/// Table-driven parsing of `abconsole [GLOBAL OPTIONS] COMMAND [ARGS] [OPTIONS]`.
///
/// Commands, their positional arguments and options are data (`CommandSpec`); this file only
/// matches words against that table. Options may come before or after positionals, as
/// `--name value` or `--name=value`; `--` ends options.
struct OptionSpec: Sendable {
    let name: String
    /// The placeholder shown in usage when the option takes a value, e.g. `PATH`; nil for a flag.
    let value: String?
    let help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, value: nil, help: help) }
    static func value(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec { OptionSpec(name: name, value: placeholder, help: help) }
}

/// A positional argument: required, optional, or taking every remaining word.
struct ArgumentSpec: Sendable {
    enum Arity { case required, optional, variadic, variadicAtLeastOne }
    let name: String
    let arity: Arity
}

/// What the command line said, by name.
struct ParsedArguments {
    var positionals: [String: [String]] = [:]
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The single value of positional `name`, if given.
    func argument(_ name: String) -> String? { positionals[name]?.first }
    /// Every value of variadic positional `name`.
    func arguments(_ name: String) -> [String] { positionals[name] ?? [] }
    /// The last value of option `name`, if given.
    func option(_ name: String) -> String? { options[name]?.last }
    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// Options every command accepts.
let globalOptions: [OptionSpec] = [
    .value("--store", "PATH", "the store file (default $ABCONSOLE_STORE, else ./experiments.json)"),
    .value("--operator", "NAME", "who makes the change (default $ABCONSOLE_OPERATOR, else $USER)"),
    .flag("--read-only", "change nothing: the console browses, commands that write exit 64"),
    .flag("--help", "show help"),
]

/// The outcome of matching the words against the command table.
enum ParseResult {
    case command(CommandSpec, ParsedArguments)
    case help(CommandSpec?)
    case noCommand(ParsedArguments)
}

/// Matches `words` (without the program name) against `commands`.
func parseCommandLine(_ words: [String], commands: [CommandSpec]) throws(CLIError) -> ParseResult {
    var parsed = ParsedArguments()
    var rest: [String] = []
    var index = 0
    var command: CommandSpec?
    var optionsEnded = false
    while index < words.count {
        let word = words[index]
        index += 1
        if !optionsEnded, word == "--" {
            optionsEnded = true
            continue
        }
        if !optionsEnded, word.hasPrefix("--"), word.count > 2 {
            let (name, inline) = splitOption(word)
            guard let spec = (globalOptions + (command?.options ?? [])).first(where: { $0.name == name }) else {
                let context = command.map { " for `\($0.name)`" } ?? ""
                throw .usage("unknown option \(name)\(context)", command: command)
            }
            if spec.value == nil {
                guard inline == nil else { throw .usage("\(name) takes no value", command: command) }
                parsed.flags.insert(name)
            } else if let inline {
                parsed.options[name, default: []].append(inline)
            } else {
                guard index < words.count else { throw .usage("\(name) needs a value (\(spec.value ?? "VALUE"))", command: command) }
                parsed.options[name, default: []].append(words[index])
                index += 1
            }
            continue
        }
        if command == nil {
            guard let match = matchCommand(word, next: index < words.count ? words[index] : nil, commands: commands) else {
                let group = commands.filter { $0.name.hasPrefix(word + " ") }
                guard group.isEmpty else {
                    let names = group.map { String($0.name.dropFirst(word.count + 1)) }
                    throw .usage("`\(word)` needs a subcommand: \(names.joined(separator: ", ")); e.g. `abconsole \(group[0].name) --help`", command: nil)
                }
                throw .usage("unknown command `\(word)`", command: nil)
            }
            command = match.spec
            index += match.extraWords
            continue
        }
        rest.append(word)
    }
    if parsed.flag("--help") { return .help(command) }
    guard let command else { return .noCommand(parsed) }
    parsed.positionals = try bindPositionals(rest, to: command)
    return .command(command, parsed)
}

private func splitOption(_ word: String) -> (String, String?) {
    guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
}

/// The command named by `word` (and `next`, for two-word commands such as `whitelist add`).
private func matchCommand(_ word: String, next: String?, commands: [CommandSpec]) -> (spec: CommandSpec, extraWords: Int)? {
    if let next, let spec = commands.first(where: { $0.name == "\(word) \(next)" }) { return (spec, 1) }
    return commands.first(where: { $0.name == word }).map { ($0, 0) }
}

private func bindPositionals(_ words: [String], to command: CommandSpec) throws(CLIError) -> [String: [String]] {
    var bound: [String: [String]] = [:]
    var remaining = words[...]
    for argument in command.arguments {
        switch argument.arity {
        case .required:
            guard let word = remaining.popFirst() else { throw .usage("missing \(argument.name)", command: command) }
            bound[argument.name] = [word]
        case .optional:
            if let word = remaining.popFirst() { bound[argument.name] = [word] }
        case .variadic, .variadicAtLeastOne:
            if argument.arity == .variadicAtLeastOne, remaining.isEmpty { throw .usage("missing \(argument.name)", command: command) }
            bound[argument.name] = Array(remaining)
            remaining = []
        }
    }
    if let extra = remaining.first { throw .usage("unexpected argument `\(extra)`", command: command) }
    return bound
}
