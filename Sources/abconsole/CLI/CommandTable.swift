import ExperimentCore

/// Every subcommand of `abconsole`: the one table that drives parsing, dispatch, help and README.
let commandTable: [CommandSpec] = [
    CommandSpec(name: "demo", arguments: [], options: [ConsoleCommands.keep],
                summary: "Open the console on a scratch copy of sample-data/experiments.json, removed on exit unless --keep.",
                example: "abconsole demo", access: .console, run: ConsoleCommands.demo),
    CommandSpec(name: "list", arguments: [], options: [ExperimentCommands.status, json],
                summary: "List experiments with their status, weights and whitelist size.",
                example: "abconsole list --status running", access: .reads, run: ExperimentCommands.list),
    CommandSpec(name: "show", arguments: [experiment], options: [json],
                summary: "Show one experiment: variants, weights, bucket ranges, payloads and whitelist size.",
                example: "abconsole show account_add_funds --json", access: .reads, run: ExperimentCommands.show),
    CommandSpec(name: "create", arguments: [experiment],
                options: [ExperimentCommands.type, ExperimentCommands.variants, ExperimentCommands.control, ExperimentCommands.salt,
                          ExperimentCommands.description],
                summary: "Create a draft experiment (the store file is created if missing).",
                example: "abconsole create checkout_button --type user --variants control=50,green=50", access: .writes, run: ExperimentCommands.create),
    CommandSpec(name: "add-variant", arguments: [experiment, ArgumentSpec(name: "NAME", arity: .required)],
                options: [ExperimentCommands.payload],
                summary: "Add a variant at 0 %; ramp it up afterwards.",
                example: "abconsole add-variant checkout_button blue --payload '{\"color\":\"#0a84ff\"}'", access: .writes, run: ExperimentCommands.addVariant),
    CommandSpec(name: "set-payload", arguments: [experiment, ArgumentSpec(name: "NAME", arity: .required), ArgumentSpec(name: "JSON", arity: .optional)],
                options: [ExperimentCommands.clearPayload],
                summary: "Set or clear a variant's JSON payload.",
                example: "abconsole set-payload checkout_button green '{\"color\":\"#34c759\"}'", access: .writes, run: ExperimentCommands.setPayload),
    CommandSpec(name: "set-description", arguments: [experiment, ArgumentSpec(name: "TEXT", arity: .required)], options: [],
                summary: "Set an experiment's description (what it tests); an empty TEXT clears it.",
                example: "abconsole set-description checkout_button \"Does a green button lift checkouts?\"", access: .writes, run: ExperimentCommands.setDescription),
    CommandSpec(name: "set-metrics", arguments: [experiment], options: MetricsCommands.options,
                summary: "Name the goal metric and the guardrail metrics results judge the variants by (:decrease when lower is better).",
                example: "abconsole set-metrics checkout_button --goal purchase --guardrail refund:decrease", access: .writes, run: MetricsCommands.setMetrics),
    CommandSpec(name: "start", arguments: [experiment], options: [],
                summary: "Start a draft, or resume a paused experiment.",
                example: "abconsole start checkout_button", access: .writes, run: ExperimentCommands.start),
    CommandSpec(name: "pause", arguments: [experiment], options: [],
                summary: "Pause a running experiment: the kill switch, everyone gets the control.",
                example: "abconsole pause checkout_button", access: .writes, run: ExperimentCommands.pause),
    CommandSpec(name: "delete", arguments: [experiment], options: [],
                summary: "Delete a draft (never served). Served experiments stay forever.",
                example: "abconsole delete checkout_button", access: .writes, run: ExperimentCommands.delete),
    CommandSpec(name: "ramp", arguments: [experiment, ArgumentSpec(name: "NAME=PCT", arity: .variadicAtLeastOne)],
                options: [ExperimentCommands.dryRun, json],
                summary: "Change weights, moving the fewest subjects; variants not named keep their weight.",
                example: "abconsole ramp checkout_button control=30 green=70 --dry-run", access: .writesUnless(ExperimentCommands.dryRun), run: ExperimentCommands.ramp),
    CommandSpec(name: "ramp-plan", arguments: [experiment, ArgumentSpec(name: "STEP", arity: .variadic)], options: RampPlanCommand.options,
                summary: "Plan a guarded rollout: full weights per step, each held and checked before `advance` moves on (--clear, --pause, --resume).",
                example: "abconsole ramp-plan checkout_button green=10 green=25 green=50 --hold 24h --min-subjects 2000", access: .writes, run: RampPlanCommand.run),
    CommandSpec(name: "advance", arguments: [ArgumentSpec(name: "EXP", arity: .variadic)], options: AdvanceCommand.options,
                summary: "Carry ramp plans out (a scheduled CI job): advance, hold or roll back each from its current phase's evidence.",
                example: "abconsole advance --json && git push", access: .writesUnless(AdvanceCommand.dryRun), run: AdvanceCommand.run),
    CommandSpec(name: "whitelist add", arguments: [experiment, subject, ArgumentSpec(name: "VARIANT", arity: .required)],
                options: [WhitelistCommands.note, WhitelistCommands.replace],
                summary: "Force a subject into a variant (draft, running or paused experiments).",
                example: "abconsole whitelist add checkout_button user-42 green --note \"QA account\"", access: .writes, run: WhitelistCommands.add),
    CommandSpec(name: "whitelist note", arguments: [experiment, subject, ArgumentSpec(name: "TEXT", arity: .required)], options: [],
                summary: "Change the note of a whitelisted subject, keeping its variant (an empty TEXT clears it).",
                example: "abconsole whitelist note checkout_button user-42 \"QA account, keep until May\"", access: .writes, run: WhitelistCommands.note),
    CommandSpec(name: "whitelist remove", arguments: [experiment, subject], options: [],
                summary: "Remove a subject from the whitelist.",
                example: "abconsole whitelist remove checkout_button user-42", access: .writes, run: WhitelistCommands.remove),
    CommandSpec(name: "whitelist list", arguments: [experiment], options: [json],
                summary: "List the whitelist of an experiment.",
                example: "abconsole whitelist list checkout_button", access: .reads, run: WhitelistCommands.list),
    CommandSpec(name: "whitelist import", arguments: [experiment, ArgumentSpec(name: "FILE", arity: .required)], options: [],
                summary: "Import CSV lines subject,variant[,note] (or - for stdin); all or nothing.",
                example: "abconsole whitelist import checkout_button partners.csv", access: .writes, run: WhitelistCommands.importCSV),
    CommandSpec(name: "resolve", arguments: [experiment, ArgumentSpec(name: "VARIANT", arity: .required)], options: ResolveCommand.options,
                summary: "Resolve to a winner, served to everyone forever (irreversible): the evidence first, typed confirmation or --yes.",
                example: "abconsole resolve checkout_button green --yes", access: .writes, run: ResolveCommand.run),
    CommandSpec(name: "inspect", arguments: [ArgumentSpec(name: "EXP", arity: .variadic)],
                options: [AssignmentCommands.user, AssignmentCommands.device, json],
                summary: "Explain how a subject is bucketed: variant, reason and bucket (all experiments by default).",
                example: "abconsole inspect --user user-42 --device device-7f3a", access: .reads, run: AssignmentCommands.inspect),
    CommandSpec(name: "assign", arguments: [ArgumentSpec(name: "EXP", arity: .variadic)],
                options: [AssignmentCommands.user, AssignmentCommands.device, AssignmentCommands.subjects, json],
                summary: "What a client is told: one variant per known experiment (all by default), unknown keys apart.",
                example: "abconsole assign account_add_funds app_color_scheme --user user-42 --device device-7f3a --json", access: .reads, run: AssignmentCommands.assign),
    CommandSpec(name: "validate", arguments: [], options: [],
                summary: "Check the store against every rule; list each problem with its JSON path.",
                example: "abconsole validate", access: .reads, run: ExperimentCommands.validate),
    CommandSpec(name: "history", arguments: [ArgumentSpec(name: "EXP", arity: .optional)],
                options: [HistoryCommand.limit, HistoryCommand.since, HistoryCommand.operatorName, json],
                summary: "The audit log, oldest first, for all experiments or one.",
                example: "abconsole history account_add_funds", access: .reads, run: HistoryCommand.run),
    // --read-only protects the store; export only reads it (its --out is a file of the user's choosing).
    CommandSpec(name: "export", arguments: [ArgumentSpec(name: "EXP", arity: .variadic)],
                options: [ExportCommand.format, ExportCommand.values, ExportCommand.out, ExportCommand.noWhitelist, ExportCommand.watch],
                summary: "Export the store (or the named experiments) for GrowthBook SDKs or for the Swift client library (deterministic bytes).",
                example: "abconsole export --format growthbook --out features.json", access: .reads, run: ExportCommand.run),
    CommandSpec(name: "results", arguments: [experiment], options: ResultsCommand.options,
                summary: "The evidence to resolve a winner: subjects, conversions, lift, chance to win, sample-ratio check.",
                example: "abconsole results account_add_funds --engine frequentist", access: .reads, run: ResultsCommand.run),
    CommandSpec(name: "plan", arguments: [ArgumentSpec(name: "EXP", arity: .optional)], options: PlanCommand.options,
                summary: "Power and duration: days until a variant can show an effect, from the traffic so far or for a draft.",
                example: "abconsole plan checkout_button --mde 0.05 --power 0.8", access: .reads, run: PlanCommand.run),
    // merge and diff read the files they are given, never --store; merge writes only --out (default OURS).
    CommandSpec(name: "merge", arguments: [ArgumentSpec(name: "BASE", arity: .required), ArgumentSpec(name: "OURS", arity: .required),
                                           ArgumentSpec(name: "THEIRS", arity: .required)],
                options: [MergeCommand.out, MergeCommand.name, json],
                summary: "Merge three versions of the store by meaning (git's merge driver); exit 1 names each conflict.",
                example: "abconsole merge base.json ours.json theirs.json --out merged.json", access: .reads, run: MergeCommand.run),
    CommandSpec(name: "diff", arguments: [ArgumentSpec(name: "FILE", arity: .variadicAtLeastOne)],
                options: [DiffCommand.textconv, json],
                summary: "The changes between two versions of the store in words (OLD NEW, or git's external-diff arguments).",
                example: "abconsole diff old.json experiments.json", access: .reads, run: DiffCommand.run),
    CommandSpec(name: "git-setup", arguments: [],
                options: [GitSetupCommand.commitChanges, GitSetupCommand.check],
                summary: "Make git merge and diff the store by meaning: .gitattributes, .gitignore (the lock file) and the repository's config (idempotent).",
                example: "abconsole git-setup --commit-changes", access: .reads, run: GitSetupCommand.run),
    CommandSpec(name: "serve", arguments: [], options: ServeCommand.options,
                summary: "Serve each app its variants over OpenFeature's remote evaluation protocol (OFREP), with no metadata; never writes the store.",
                example: "abconsole serve --listen 127.0.0.1:7070 --tokens tokens.txt", access: .reads, run: ServeCommand.run),
    CommandSpec(name: "help", arguments: [ArgumentSpec(name: "COMMAND", arity: .variadic)], options: [],
                summary: "Show the help of abconsole or of one command (the same as COMMAND --help).",
                example: "abconsole help whitelist add", access: .reads, run: HelpCommands.help),
    CommandSpec(name: "completion", arguments: [ArgumentSpec(name: "SHELL", arity: .required, choices: CompletionScripts.shells)], options: [],
                summary: "Print a completion script for bash, zsh or fish (commands, options and the store's experiment keys).",
                example: "source <(abconsole completion bash)", access: .reads, run: HelpCommands.completion),
]

private let experiment = ArgumentSpec(name: "EXP", arity: .required)
private let subject = ArgumentSpec(name: "SUBJECT", arity: .required)
private let json = CommonOptions.json

/// The overview printed by `abconsole --help`.
func overviewHelp() -> String {
    let width = commandTable.map(\.name.count).max() ?? 0
    var lines = [
        "abconsole — an A/B experiment console and scriptable CLI over one JSON store",
        "",
        "usage: abconsole [--store PATH] [--operator NAME] [COMMAND] [ARGS] [--json]",
        "       (no command opens the console on the store)",
        "",
        "commands:",
    ]
    lines += commandTable.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary }
    let optionWidth = globalOptions.map(\.synopsis.count).max() ?? 0
    lines += ["", "global options:"] + globalOptions.map { "  " + $0.synopsis.padding(toLength: optionWidth, withPad: " ", startingAt: 0) + "  " + $0.help }
    lines += ["", "Run `abconsole COMMAND --help` (or `abconsole help COMMAND`) for a command's options and an example.",
              "Exit codes: 0 ok, 64 usage, 65 refused or bad data, 66 store missing, 73/74 cannot create/write, 75 lock timeout or conflict."]
    return lines.joined(separator: "\n")
}

/// The help of a group of two-word commands, e.g. `abconsole whitelist --help`.
func groupHelp(_ group: String) -> String {
    let members = commandTable.filter { $0.name.hasPrefix(group + " ") }
    let width = members.map { $0.name.count - group.count - 1 }.max() ?? 0
    var lines = ["usage: abconsole \(group) SUBCOMMAND [ARGS] [OPTIONS]", "", "subcommands:"]
    lines += members.map { member in
        "  " + String(member.name.dropFirst(group.count + 1)).padding(toLength: width, withPad: " ", startingAt: 0) + "  " + member.summary
    }
    lines += ["", "Run `abconsole \(group) SUBCOMMAND --help` for a subcommand's options and an example."]
    return lines.joined(separator: "\n")
}

/// The help text for `topic`.
func helpText(_ topic: HelpTopic) -> String {
    switch topic {
    case .overview: overviewHelp()
    case .command(let command): command.help
    case .group(let group): groupHelp(group)
    }
}
