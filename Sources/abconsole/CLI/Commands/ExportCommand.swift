import ExperimentCore
import ExperimentStore
import Foundation

/// `export`: the store for GrowthBook SDKs or for the client library, to stdout or atomically to a file.
enum ExportCommand {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let format = try arguments.required(Self.format)
        let values = try exportValues(format: format, arguments.choice(Self.values, as: GrowthBookExport.Values.self))
        if arguments[watch] {
            try ExportWatch.run(arguments, context, format: format, values: values)
            return
        }
        let keys = arguments.arguments("EXP")
        let (snapshot, entries) = try ExportEntries.load(context)
        let export = try Export(snapshot, entries: entries, keys: keys, values: values, whitelists: !arguments[noWhitelist])
        warn(export.warnings)
        note(export.whitelistNote)
        guard let path = arguments[out] else {
            context.output.write(bytes: try export.data())
            return
        }
        try write(to: path, context, export.write)
        let count = export.experiments
        context.output.line("exported \(count) experiment\(count == 1 ? "" : "s") (\(format)) to \(SafeOutput.text(path))")
    }

    /// Prints each warning on standard error.
    private static func warn(_ warnings: [String]) {
        for warning in warnings {
            FileHandle.standardError.write(Data("abconsole: warning: \(SafeOutput.text(warning))\n".utf8))
        }
    }

    /// Prints `note`, if any, once on standard error.
    static func note(_ note: String?) {
        guard let note else { return }
        StandardStreams.writeError("abconsole: note: \(SafeOutput.text(note))\n")
    }

    /// Replaces `path` (never the store itself) with the bytes `bytes` streams, atomically; when
    /// `bytes` throws, nothing is written.
    private static func write(to path: String, _ context: CommandContext, _ bytes: (inout ByteWriter) throws -> Void) throws {
        try refuseStore(path, context)
        var thrown: Error?
        do {
            _ = try FileSystem.replaceAtomically(path, known: nil) { (writer: inout ByteWriter) throws(FileSystem.Failure) in
                do { try bytes(&writer) } catch {
                    thrown = error
                    throw FileSystem.Failure.abandoned
                }
            }
        } catch {
            if let thrown { throw thrown }
            let exists = FileManager.default.fileExists(atPath: path)
            throw CLIError(code: exists ? .ioError : .cannotCreate, message: "cannot write \(path): \(error.reason); nothing was written")
        }
    }

    /// Refuses `--out path` when it is the store itself (or a link to it): an export never replaces the store.
    static func refuseStore(_ path: String, _ context: CommandContext) throws {
        guard !FileSystem.sameFile(path, context.store.path) else {
            throw CLIError.usage("--out \(SafeOutput.text(path)) is the store itself; export to another file", command: nil)
        }
    }

    /// What `--values` asks for: nil for `--format client` (which takes none); the parser allows only `growthbook` and `client`.
    static func exportValues(format: String, _ values: GrowthBookExport.Values?) throws -> GrowthBookExport.Values? {
        guard format == "growthbook" else {
            guard values == nil else { throw CLIError.usage("--values applies to --format growthbook only", command: nil) }
            return nil
        }
        return values ?? .names
    }

    /// `snapshot` with only the experiments `keys` names (all when empty); an unknown key is the domain's refusal.
    static func chosen(_ snapshot: StoreSnapshot, keys: [String]) throws -> StoreSnapshot {
        guard !keys.isEmpty else { return snapshot }
        var chosen = snapshot
        chosen.experiments = [:]
        for key in keys {
            guard let experiment = snapshot.experiments[key] else { throw ExperimentError.unknownExperiment(key) }
            chosen.experiments[key] = experiment
        }
        return chosen
    }
}
