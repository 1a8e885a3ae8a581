import ExperimentCore
import ExperimentResults
import ResultsReading
import ExperimentStore

/// Shell completion, generated from the command table: tiny bash, zsh and fish scripts that ask
/// `abconsole __complete WORDS…` for candidates (as kubectl and gh do), so commands, options,
/// their values and the store's experiment keys come from one place at completion time.
enum Completion {
    /// The hidden command the scripts call; not in the table, never in help.
    static let hiddenCommand = "__complete"
    /// How many rows of the conversions log completion reads for metric names (a Tab answers in a fraction of a second).
    static let metricRows = 200_000

    /// The candidates for the last of `words` (the word being typed, maybe empty), one per line as
    /// `value` or `value<TAB>description`. Nothing means "complete file names".
    static func candidates(for words: [String], environment: [String: String]) -> [String] {
        guard let current = words.last else { return [] }
        var state = LineState()
        for word in words.dropLast() { state.read(word) }
        return state.candidates(for: current, environment: environment)
            .filter { $0.value.hasPrefix(current) }
            .map { $0.description.isEmpty ? $0.value : "\($0.value)\t\(SafeOutput.text($0.description))" }
    }

    /// What the words before the one being typed said.
    private struct LineState {
        var command: CommandSpec?
        var group: String?
        var positionals: [String] = []
        /// The value option waiting for its value (the previous word).
        var pendingOption: OptionSpec?
        var store: String?
        var optionsEnded = false
        var given: Set<String> = []

        mutating func read(_ word: String) {
            if let option = pendingOption {
                if option.name == "--store" { store = word }
                pendingOption = nil
                return
            }
            if !optionsEnded, word == "--" { optionsEnded = true; return }
            if !optionsEnded, word.hasPrefix("-"), word.count > 1 {
                let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
                given.insert(name)
                guard let option = options(of: command).first(where: { $0.name == name }), option.value != nil else { return }
                if let equals = word.firstIndex(of: "=") {
                    if name == "--store" { store = String(word[word.index(after: equals)...]) }
                } else {
                    pendingOption = option
                }
                return
            }
            if command == nil {
                if let group, let spec = commandTable.first(where: { $0.name == "\(group) \(word)" }) {
                    command = spec
                } else if let spec = commandTable.first(where: { $0.name == word }) {
                    command = spec
                } else if group == nil, commandTable.contains(where: { $0.name.hasPrefix(word + " ") }) {
                    group = word
                }
                return
            }
            positionals.append(word)
        }

        func candidates(for current: String, environment: [String: String]) -> [(value: String, description: String)] {
            if let option = pendingOption {
                if option.name == "--goal" || option.name == "--guardrail" { return metricNames(typed: current, environment: environment) }
                return option.choices.map { ($0, "") }
            }
            if !optionsEnded, current.hasPrefix("-") {
                return options(of: command).filter { $0.repeatable || !given.contains($0.name) }.map { ($0.name, $0.help) }
            }
            guard let command else {
                if let group {
                    return commandTable.filter { $0.name.hasPrefix(group + " ") }.map { (String($0.name.dropFirst(group.count + 1)), $0.summary) }
                }
                return Completion.commandWords()
            }
            guard let argument = argument(of: command, at: positionals.count) else { return [] }
            if !argument.choices.isEmpty { return argument.choices.map { ($0, "") } }
            switch argument.name {
            case "EXP": return experimentKeys(environment: environment)
            case "COMMAND":
                if let first = positionals.first, positionals.count == 1 {
                    return commandTable.filter { $0.name.hasPrefix(first + " ") }.map { (String($0.name.dropFirst(first.count + 1)), $0.summary) }
                }
                return positionals.isEmpty ? Completion.commandWords() : []
            default: return []
            }
        }

        /// The argument that the positional word at `position` fills.
        private func argument(of command: CommandSpec, at position: Int) -> ArgumentSpec? {
            for (index, argument) in command.arguments.enumerated() {
                if index == position { return argument }
                if argument.arity == .variadic || argument.arity == .variadicAtLeastOne { return argument }
            }
            return nil
        }

        /// The metric names the conversions log beside the store (or `$ABCONSOLE_CONVERSIONS`) holds in its
        /// first `metricRows` rows; once a name and its `:` are typed, the name with each direction.
        private func metricNames(typed: String, environment: [String: String]) -> [(value: String, description: String)] {
            if let colon = typed.firstIndex(of: ":") {
                return MetricDirection.allCases.map { ("\(typed[..<colon]):\($0.rawValue)", $0 == .increase ? "higher is better" : "lower is better") }
            }
            let path = store ?? environment["ABCONSOLE_STORE"].nonEmpty ?? "experiments.json"
            let conversions = EventPaths(besideStore: path, environment: environment).conversions
            return ((try? ConversionMetricNames.read(path: conversions, rowLimit: Completion.metricRows)) ?? []).map { ($0, "metric in the conversions log") }
        }

        /// The keys of the store the line names (or the environment's), with their status and type.
        private func experimentKeys(environment: [String: String]) -> [(value: String, description: String)] {
            let path = store ?? environment["ABCONSOLE_STORE"].nonEmpty ?? "experiments.json"
            guard let snapshot = try? StoreFile(path: path, lockTimeout: 0).load() else { return [] }
            return snapshot.sortedExperiments.map { ($0.key, "\($0.status.rawValue), \($0.type.rawValue)-level") }
        }
    }

    /// The first word of every command, once each (`whitelist` for the group), with a summary.
    private static func commandWords() -> [(value: String, description: String)] {
        var seen = Set<String>()
        return commandTable.compactMap { spec in
            let word = String(spec.name.prefix { $0 != " " })
            guard seen.insert(word).inserted else { return nil }
            return (word, word == spec.name ? spec.summary : "\(word) subcommands: \(subcommands(of: word, in: commandTable).joined(separator: ", "))")
        }
    }
}
