import ExperimentCore

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
    /// Whether the command cannot run without it (usage shows it without brackets).
    var required = false
    /// Whether it may be given more than once; any other value option given twice is a usage error.
    var repeatable = false
    /// The values it accepts, for completion and checking (empty: any value).
    var choices: [String] = []

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, value: nil, help: help) }
    static func value(_ name: String, _ placeholder: String, _ help: String, required: Bool = false,
                      repeatable: Bool = false, choices: [String] = []) -> OptionSpec {
        OptionSpec(name: name, value: placeholder, help: help, required: required, repeatable: repeatable, choices: choices)
    }

    /// `--name VALUE`, or `--name` for a flag.
    var synopsis: String { name + (value.map { " \($0)" } ?? "") }
}

/// A positional argument: required, optional, or taking every remaining word.
struct ArgumentSpec: Sendable {
    enum Arity { case required, optional, variadic, variadicAtLeastOne }
    let name: String
    let arity: Arity
    /// The values it accepts, for completion and checking (empty: any word).
    var choices: [String] = []
}

/// What the command line said; options are read through their declarations (`DeclaredOption`).
struct ParsedArguments {
    var positionals: [String: [String]] = [:]
    /// Values of the command's own options, by name.
    fileprivate var options: [String: [String]] = [:]
    /// Values of global options, by name: a command's own option that shares a global option's name
    /// (`history --operator`) takes the values given after the command; before it the name keeps its global meaning.
    fileprivate var globals: [String: [String]] = [:]
    fileprivate var flags: Set<String> = []

    /// The single value of positional `name`, if given.
    func argument(_ name: String) -> String? { positionals[name]?.first }
    /// Every value of variadic positional `name`.
    func arguments(_ name: String) -> [String] { positionals[name] ?? [] }

    /// Whether `flag` was given.
    subscript(_ flag: Flag) -> Bool { flags.contains(flag.name) }
    /// The last value of `option`, if given.
    subscript(_ option: Option) -> String? { all(option).last }
    /// Every value of (repeatable) `option` in order; empty when it is not given.
    func all(_ option: Option) -> [String] { (option.isGlobal ? globals : options)[option.name] ?? [] }
    /// Every value of (repeatable) `option` in order; `fallback` when it is not given.
    func all(_ option: Option, default fallback: [String]) -> [String] {
        let values = all(option)
        return values.isEmpty ? fallback : values
    }
    /// Those of `options` that were given, in the order listed.
    func given(_ options: [Option]) -> [Option] { options.filter { self[$0] != nil } }

    /// The value of required positional `name`; the parser refuses a line without it.
    func required(_ name: String) throws(CLIError) -> String {
        guard let value = argument(name) else { throw .usage("missing \(name)", command: nil) }
        return value
    }

    /// The value of required `option`; the parser refuses a line without it.
    func required(_ option: Option) throws(CLIError) -> String {
        guard let value = self[option] else { throw .usage("missing \(option.name)", command: nil) }
        return value
    }

    /// The value of `option` as `T`, whose raw values are the option's declared choices (the parser refused any other).
    func choice<T: RawRepresentable & CaseIterable>(_ option: Option, as type: T.Type) throws(CLIError) -> T? where T.RawValue == String {
        guard let text = self[option] else { return nil }
        guard let value = T(rawValue: text) else { throw choiceRefusal(option.name, text, T.allCases.map(\.rawValue), command: nil) }
        return value
    }
}

/// The usage error for `word` given to option or argument `name` outside its `choices`, with the nearest choice.
func choiceRefusal(_ name: String, _ word: String, _ choices: [String], command: CommandSpec?) -> CLIError {
    let allowed = choices.count == 2 ? "\(choices[0]) or \(choices[1])" : "one of \(choices.joined(separator: ", "))"
    return .usage("\(name) must be \(allowed), not `\(SafeOutput.text(word))`\(Suggestions.hint(for: word, among: choices))", command: command)
}

/// Options every command accepts.
let globalOptions: [OptionSpec] = GlobalOptions.all.map(\.spec)

/// What help was asked for.
enum HelpTopic {
    case overview
    case command(CommandSpec)
    /// A group of two-word commands such as `whitelist`.
    case group(String)
}

/// The outcome of matching the words against the command table.
enum ParseResult {
    case command(CommandSpec, ParsedArguments)
    case help(HelpTopic)
    case version
    case noCommand(ParsedArguments)
}

/// Matches `words` (without the program name) against `commands`.
func parseCommandLine(_ words: [String], commands: [CommandSpec]) throws(CLIError) -> ParseResult {
    var parsed = ParsedArguments()
    var rest: [String] = []
    var index = 0
    var command: CommandSpec?
    var group: String?
    var optionsEnded = false
    // `--help` wins wherever it stands: what else is wrong on the line does not stop the help.
    let helpWanted = words.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    while index < words.count {
        var word = words[index]
        index += 1
        if !optionsEnded, word == "--" {
            optionsEnded = true
            continue
        }
        if !optionsEnded, word == "-h" { word = "--help" }
        if !optionsEnded, word.hasPrefix("--"), word.count > 2 {
            let (name, inline) = splitOption(word)
            let known = options(of: command)
            guard let spec = known.first(where: { $0.name == name }) else {
                if helpWanted { continue }
                let context = command.map { " for `\($0.name)`" } ?? ""
                throw .usage("unknown option \(name)\(context)\(Suggestions.hint(for: name, among: known.map(\.name)))", command: command)
            }
            if spec.value == nil {
                guard inline == nil else { throw .usage("\(name) takes no value", command: command) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < words.count else { throw .usage("\(name) needs a value (\(spec.value ?? "VALUE"))", command: command) }
                value = words[index]
                index += 1
            }
            // An empty file name would fail later as "cannot write : …" (73) or "no such file" (66): it is a usage error.
            if value.isEmpty, !helpWanted, let placeholder = spec.value, fileValues.contains(placeholder) {
                throw .usage("\(name) needs a file name", command: command)
            }
            if !spec.choices.isEmpty, !helpWanted, !spec.choices.contains(value) {
                throw choiceRefusal(name, value, spec.choices, command: command)
            }
            let own = command?.options.contains { $0.name == name } == true
            if !spec.repeatable, !helpWanted, let earlier = (own ? parsed.options : parsed.globals)[name]?.first {
                throw .usage("\(name) is given twice (`\(earlier)` and `\(value)`); give it once", command: command)
            }
            if own {
                parsed.options[name, default: []].append(value)
            } else {
                parsed.globals[name, default: []].append(value)
            }
            continue
        }
        if command == nil, group == nil {
            let next = index < words.count ? words[index] : nil
            if let match = matchCommand(word, next: next, commands: commands) {
                command = match.spec
                index += match.extraWords
                continue
            }
            guard commands.contains(where: { $0.name.hasPrefix(word + " ") }) else {
                if helpWanted { continue }
                let names = commands.map { String($0.name.prefix { $0 != " " }) }
                throw .usage("unknown command `\(word)`\(Suggestions.hint(for: word, among: names))", command: nil)
            }
            group = word
            continue
        }
        if let group, command == nil {
            if helpWanted { continue }
            let names = subcommands(of: group, in: commands)
            let hint = Suggestions.hint(for: word, among: names)
            throw .usage("`\(group)` has no subcommand `\(word)`" + (hint.isEmpty ? "; its subcommands are \(names.joined(separator: ", "))" : hint), group: group)
        }
        rest.append(word)
    }
    if helpWanted { return .help(command.map { .command($0) } ?? group.map { .group($0) } ?? .overview) }
    if parsed[GlobalOptions.version] { return .version }
    if let group, command == nil {
        let names = subcommands(of: group, in: commands)
        throw .usage("`\(group)` needs a subcommand: \(names.joined(separator: ", ")); e.g. `abconsole \(group) \(names[0]) --help`", group: group)
    }
    guard let command else { return .noCommand(parsed) }
    parsed.positionals = try bindPositionals(rest, to: command)
    for (name, values) in parsed.positionals where fileValues.contains(name) && values.contains("") {
        throw .usage("\(name) needs a file name, not an empty word", command: command)
    }
    if let missing = command.options.first(where: { $0.required && parsed.options[$0.name] == nil }) {
        throw .usage("missing \(missing.synopsis)", command: command)
    }
    return .command(command, parsed)
}

/// Placeholders of values that name a file: an empty one is refused as a usage error.
private let fileValues: Set<String> = ["FILE", "PATH"]

/// The options `command` accepts: its own, then the global ones it does not redefine.
func options(of command: CommandSpec?) -> [OptionSpec] {
    let own = command?.options ?? []
    return own + globalOptions.filter { global in !own.contains { $0.name == global.name } }
}

/// The second words of the commands in `group`, e.g. `add`, `remove` for `whitelist`.
func subcommands(of group: String, in commands: [CommandSpec]) -> [String] {
    commands.filter { $0.name.hasPrefix(group + " ") }.map { String($0.name.dropFirst(group.count + 1)) }
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
        for word in bound[argument.name] ?? [] where !argument.choices.isEmpty && !argument.choices.contains(word) {
            throw choiceRefusal(argument.name, word, argument.choices, command: command)
        }
    }
    if let extra = remaining.first { throw .usage("unexpected argument `\(extra)`", command: command) }
    return bound
}
