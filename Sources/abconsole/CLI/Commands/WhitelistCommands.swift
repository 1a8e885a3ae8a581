import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// `whitelist add | note | remove | list | import`.
enum WhitelistCommands {
    static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        try context.apply(.whitelistAdd(experiment: arguments.required("EXP"), subject: arguments.required("SUBJECT"),
                                        variant: arguments.required("VARIANT"), note: arguments[Self.note] ?? "",
                                        replace: arguments[Self.replace]))
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
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(entries))
            return
        }
        let rows = entries.map { [$0.subject, $0.variant, $0.note, $0.addedBy, TimeLabel.utc($0.addedAt)] }
        SafeOutput.table(["SUBJECT", "VARIANT", "NOTE", "ADDED BY", "ADDED AT"], rows).forEach(context.output.line)
    }

    /// `whitelist import EXP FILE|-`: the store service's import (file checks, every bad line named, the commit).
    static func importCSV(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let file = try arguments.required("FILE"), key = try arguments.required("EXP")
        let source: ImportSource = file == "-" ? .data(try InputFile.read(file, limit: StoreService.importLimit)) : .file(file)
        let service = context.service
        let saved = try service.importWhitelist(key, service.readImport(source), context: context.changeContext())
        context.output.line(SafeOutput.text(context.said(saved).message))
    }
}

/// Reads a user-named input file (or `-` for standard input, with `read(2)`) with a clear error.
enum InputFile {
    /// At most `limit` bytes; a device or a directory is refused unread (`InputFileError`).
    static func read(_ path: String, limit: Int) throws -> Data {
        guard path == "-" else { return try InputFileError.read(path, limit: limit) }
        do {
            return try StandardStreams.readAll(STDIN_FILENO, limit: limit)
        } catch {
            guard error.code != EFBIG else {
                throw CLIError(code: .dataError, message: "standard input is larger than \(limit >> 20) MiB; split it into smaller files")
            }
            throw CLIError(code: .noInput, message: "cannot read standard input: \(error.reason)")
        }
    }
}
