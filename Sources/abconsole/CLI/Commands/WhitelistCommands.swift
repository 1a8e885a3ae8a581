import ExperimentCore
import ExperimentStore
import Foundation

/// `whitelist add | note | remove | list | import`.
enum WhitelistCommands {
    static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.whitelistAdd(experiment: arguments.required("EXP"), subject: arguments.required("SUBJECT"),
                                        variant: arguments.required("VARIANT"), note: arguments.option("--note") ?? "",
                                        replace: arguments.flag("--replace")))
    }

    /// Changes a listed subject's note through the core's `whitelistNote`; an unlisted subject points to `whitelist add`.
    static func note(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let key = try arguments.required("EXP"), subject = try arguments.required("SUBJECT")
        do {
            try context.apply(.whitelistNote(experiment: key, subject: subject, note: arguments.required("TEXT")))
        } catch StoreError.refused(let refusal) {
            guard case .notWhitelisted = refusal else { throw StoreError.refused(refusal) }
            throw CLIError.data(refusal.message + "; add it with `abconsole whitelist add \(key) \(subject) VARIANT --note TEXT`")
        }
    }

    static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.whitelistRemove(experiment: arguments.required("EXP"), subject: arguments.required("SUBJECT")))
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let experiment = try context.experiment(arguments.required("EXP"), in: context.load())
        let entries = experiment.sortedWhitelist
        if arguments.flag("--json") {
            context.output.line(try SafeOutput.json(entries))
            return
        }
        let rows = entries.map { [$0.subject, $0.variant, $0.note, $0.addedBy, TimeLabel.utc($0.addedAt)] }
        SafeOutput.table(["SUBJECT", "VARIANT", "NOTE", "ADDED BY", "ADDED AT"], rows).forEach(context.output.line)
    }

    static func importCSV(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let file = try arguments.required("FILE")
        let data = try InputFile.read(file)
        let key = try arguments.required("EXP")
        let parsed = try WhitelistCSV.parseCollecting(data)
        if parsed.problems.total > 0 {
            // Malformed lines and bad rows (unknown variant, invalid id, …) are reported together.
            var problems = parsed.problems
            if let experiment = try? context.load().experiments[key] { problems.merge(experiment.importProblems(parsed.rows)) }
            if let error = problems.error { throw error }
        }
        try context.apply(.whitelistImport(experiment: key, rows: parsed.rows))
    }
}

/// Reads a user-named input file (or `-` for standard input, with `read(2)`) with a clear error.
enum InputFile {
    static func read(_ path: String) throws -> Data {
        if path == "-" {
            do {
                return try StandardStreams.readAll(STDIN_FILENO)
            } catch {
                throw CLIError(code: .noInput, message: "cannot read standard input: \(error.reason)")
            }
        }
        // A device never ends (`/dev/zero`, `/dev/urandom`): refused unread. A FIFO is a stream from
        // another process (`<(…)`), read like standard input.
        if StandardStreams.isDevice(path) {
            throw CLIError(code: .noInput, message: "cannot open \(SafeOutput.text(path)): it is a device, not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "it does not exist"
            throw CLIError(code: .noInput, message: "cannot open \(SafeOutput.text(path)): \(reason)")
        }
        return data
    }
}
