import ExperimentCore
import ExperimentStore
import Foundation

/// `whitelist add | remove | list | import`.
enum WhitelistCommands {
    static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.whitelistAdd(experiment: arguments.argument("EXP") ?? "", subject: arguments.argument("SUBJECT") ?? "",
                                        variant: arguments.argument("VARIANT") ?? "", note: arguments.option("--note") ?? ""))
    }

    static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.whitelistRemove(experiment: arguments.argument("EXP") ?? "", subject: arguments.argument("SUBJECT") ?? ""))
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let experiment = try context.experiment(arguments.argument("EXP") ?? "", in: context.load())
        let entries = experiment.sortedWhitelist
        if arguments.flag("--json") {
            context.output.line(try SafeOutput.json(entries))
            return
        }
        let rows = entries.map { [$0.subject, $0.variant, $0.note, $0.addedBy, $0.addedAt.formatted(.iso8601)] }
        SafeOutput.table(["SUBJECT", "VARIANT", "NOTE", "ADDED BY", "ADDED AT"], rows).forEach(context.output.line)
    }

    static func importCSV(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let file = arguments.argument("FILE") ?? ""
        let data = try InputFile.read(file)
        let rows = try WhitelistCSV.parse(data)
        try context.apply(.whitelistImport(experiment: arguments.argument("EXP") ?? "", rows: rows))
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
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "it does not exist"
            throw CLIError(code: .noInput, message: "cannot open \(SafeOutput.text(path)): \(reason)")
        }
        return data
    }
}
