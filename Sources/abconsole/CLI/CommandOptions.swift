import ExperimentCore

/// The options of the commands whose handlers declare none in their own file, each declared once
/// in its command's namespace; the command table lists them, the handlers read them.
extension ConsoleCommands {
    static let keep = Flag("--keep", "keep the scratch copy when the console closes (its path is printed)")
}

extension ExperimentCommands {
    static let status = Option("--status", "S", "only experiments in status S (draft, running, paused, resolved)",
                               choices: ExperimentStatus.allCases.map(\.rawValue))
    static let type = Option("--type", "user|device", "bucket by user id or by device id", required: true,
                             choices: SubjectType.allCases.map(\.rawValue))
    static let variants = Option("--variants", "NAME=PCT,...", "variants and weights in percent, laid out from bucket 0", required: true)
    static let control = Option("--control", "NAME", "the variant served when nothing else applies (default: the first)")
    static let salt = Option("--salt", "S", "the hash seed (default: the key)")
    static let description = Option("--description", "TEXT", "what the experiment is for")
    static let payload = Option("--payload", "JSON", "the variant's JSON payload")
    static let clearPayload = Flag("--clear", "remove the payload")
    static let dryRun = Flag("--dry-run", "show what would move, write nothing")
}

extension WhitelistCommands {
    static let note = Option("--note", "TEXT", "why this subject is whitelisted")
    static let replace = Flag("--replace", "replace the subject's entry if it is already whitelisted")
}

extension AssignmentCommands {
    static let user = Option("--user", "ID", "the user id")
    static let device = Option("--device", "ID", "the device id")
    static let subjects = Option("--subjects", "FILE|-", "batch: one subject id per line, used as user and device id")
}

extension HistoryCommand {
    static let limit = Option("--limit", "N", "only the last N entries")
    static let since = Option("--since", "T", "only entries at or after T: 2026-03-01, 2026-03-01T09:30:00Z, or 30m, 12h, 7d ago")
    static let operatorName = Option("--operator", "NAME", "only entries by NAME")
}

extension ExportCommand {
    static let format = Option("--format", "growthbook|client", "a GrowthBook SDK payload, or the client library's snapshot", required: true,
                               choices: ["growthbook", "client"])
    static let values = Option("--values", "names|payloads", "growthbook: serve variant names (default) or their JSON payloads",
                               choices: GrowthBookExport.Values.allCases.map(\.rawValue))
    static let out = Option("--out", "FILE", "write the file atomically instead of printing")
    static let noWhitelist = Flag("--no-whitelist", "leave every whitelist out: no whitelisted id ships in the file")
    static let watch = Flag("--watch", "with --out: keep running and rewrite FILE after every change to the store")
}

extension MergeCommand {
    static let out = Option("--out", "FILE", "write the merged store here (default: OURS, as git's merge driver expects)")
    static let name = Option("--name", "PATH", "the store's name in messages (git's %P; git-setup passes it)")
}

extension DiffCommand {
    static let textconv = Flag("--textconv", "print one store in words, a line per unit (git's textconv)")
}

extension GitSetupCommand {
    static let commitChanges = Flag("--commit-changes", "commit the store alone after every change made through abconsole")
    static let check = Flag("--check", "report what is missing, change nothing (exit 1 when not set up)")
}
