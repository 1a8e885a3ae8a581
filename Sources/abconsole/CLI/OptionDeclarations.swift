/// An option as a command declares it, once: the constant is the key handlers read it by
/// (`arguments[Self.dryRun]`), so a misspelt name is a compile error, and its spec is what the
/// command table lists for parsing, help and completion.
protocol DeclaredOption: Sendable {
    var spec: OptionSpec { get }
}

extension DeclaredOption {
    /// The option's name, e.g. `--dry-run`, for messages.
    var name: String { spec.name }
}

/// A flag (`--json`): read as a `Bool`.
struct Flag: DeclaredOption {
    let spec: OptionSpec

    init(_ name: String, _ help: String) { spec = .flag(name, help) }
}

/// An option taking a value (`--status S`): read as `String?`, or every value in order when repeatable.
struct Option: DeclaredOption {
    let spec: OptionSpec
    /// Whether it is one of `GlobalOptions`, whose values a command's own option of the same name does not take.
    let isGlobal: Bool

    init(_ name: String, _ placeholder: String, _ help: String, required: Bool = false, repeatable: Bool = false,
         choices: [String] = []) {
        self.init(.value(name, placeholder, help, required: required, repeatable: repeatable, choices: choices), isGlobal: false)
    }

    init(_ spec: OptionSpec, isGlobal: Bool = false) {
        self.spec = spec
        self.isGlobal = isGlobal
    }
}

/// Where a command that reads evidence finds it: event logs or a pre-aggregated summary.
struct EvidenceOptions: Sendable {
    let exposures: Option
    let conversions: Option
    let summary: Option

    /// In the order help lists them.
    var all: [Option] { [exposures, conversions, summary] }
}

/// Options several commands share, declared once.
enum CommonOptions {
    static let json = Flag("--json", "print JSON")
}

/// Options every command accepts.
enum GlobalOptions {
    static let store = Option(.value("--store", "PATH", "the store file (default $ABCONSOLE_STORE, else ./experiments.json)"), isGlobal: true)
    static let operatorName = Option(.value("--operator", "NAME", "who makes the change (default $ABCONSOLE_OPERATOR, else $USER)"), isGlobal: true)
    static let readOnly = Flag("--read-only", "change nothing: the console browses, commands that write exit 64")
    static let help = Flag("--help", "show help (also -h)")
    static let version = Flag("--version", "print the version")

    /// In the order help lists them.
    static let all: [any DeclaredOption] = [store, operatorName, readOnly, help, version]
}
